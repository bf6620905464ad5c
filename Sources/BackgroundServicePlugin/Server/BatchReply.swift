import HostProtocol

/// Collects the responses of one batch and writes them as one array once every
/// request in it has been answered (or dropped unanswered).
///
/// A hold taken at creation and released after the last member is processed
/// keeps the reply from being written before the batch has been read through.
final class BatchReply {
    private var slots: [Response?] = []
    private var outstanding = 1
    private let write: ([Response]) -> Void

    init(write: @escaping ([Response]) -> Void) {
        self.write = write
    }

    /// Reserves a place for one request's response; returns its index.
    func addSlot() -> Int {
        slots.append(nil)
        outstanding += 1
        return slots.count - 1
    }

    /// Fills a slot; nil means the request was dropped unanswered (it gets no entry).
    func fill(_ index: Int, with response: Response?) {
        slots[index] = response
        settle()
    }

    /// Releases the hold taken while the batch was being read.
    func release() {
        settle()
    }

    private func settle() {
        outstanding -= 1
        guard outstanding == 0 else { return }
        let responses = slots.compactMap { $0 }
        if !responses.isEmpty { write(responses) }
    }
}
