import HostProtocol

/// Collects the responses of one batch and writes them as one array once every
/// request in it has been answered (or dropped unanswered).
///
/// A hold taken at creation and released after the last member is processed
/// keeps the reply from being written before the batch has been read through.
///
/// The reply is bounded: each response is serialized as it is filled and counted, and
/// a reply that would pass ``maxReplyBytes`` (4 MiB) is not written: once every member
/// has been answered, one error takes its place (`-32600`, `id: null`,
/// `docs/protocol.md`, "Batches"). Without the bound, 1 MiB of `rpc.discover` requests
/// made a 900 MB reply. What is held for a batch is its serialized responses, at most
/// the bound.
final class BatchReply {
    /// The longest batch reply written, in bytes (the array, without its framing).
    static let maxReplyBytes = 4 << 20

    /// Each response serialized, in request order; nil while unanswered or when dropped.
    private var slots: [[UInt8]?] = []
    private var outstanding = 1
    /// The reply's length so far: the brackets, the responses and the commas between them.
    private var length = 2
    private var answered = 0
    /// The response (counted from 1) with which the reply passed the bound, once it has.
    private var passedAt: Int?
    private let write: ([[UInt8]]) -> Void
    private let writeError: (RPCError) -> Void

    /// `write` gets the responses of a reply within the bound, serialized, in request
    /// order; `writeError` the error that replaces a reply past it.
    init(write: @escaping ([[UInt8]]) -> Void, writeError: @escaping (RPCError) -> Void) {
        self.write = write
        self.writeError = writeError
    }

    /// Reserves a place for one request's response; returns its index.
    func addSlot() -> Int {
        slots.append(nil)
        outstanding += 1
        return slots.count - 1
    }

    /// Fills a slot; nil means the request was dropped unanswered (it gets no entry).
    func fill(_ index: Int, with response: Response?) {
        if let response, passedAt == nil {
            var bytes: [UInt8] = []
            MessageWriter.append(response, to: &bytes)
            answered += 1
            length += bytes.count + (answered > 1 ? 1 : 0)
            if length > Self.maxReplyBytes {
                passedAt = answered
                for i in slots.indices { slots[i] = nil }  // nothing more is held for it
            } else {
                slots[index] = bytes
            }
        }
        settle()
    }

    /// Releases the hold taken while the batch was being read.
    func release() {
        settle()
    }

    private func settle() {
        outstanding -= 1
        guard outstanding == 0 else { return }
        if let passedAt {
            writeError(
                .invalidRequest(
                    "the reply to this batch would be longer than \(Self.maxReplyBytes) bytes (4 MiB) and is not "
                        + "sent: its members were processed, their \(slots.count) responses are withheld (the limit "
                        + "was passed at response \(passedAt))"))
            return
        }
        let responses = slots.compactMap { $0 }
        if !responses.isEmpty { write(responses) }
    }
}
