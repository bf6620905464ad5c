import HostProtocol

/// Batches (contract section 2): members processed in order, one reply array in request
/// order, written once every request in it is answered (a `waitForCancel` holds it back).
///
/// Under `--dispatch tauri` a batch's invokes run on `ipc` and its `os/` controls on main
/// (docs/protocol.md section 8). With `--profile strict` the main queue runs the `os/`
/// controls first, then the invokes: ``defaultOrder(_:)``. With `seed` the plugin may
/// interleave their statements; ``interleavings(_:)`` lists the orders in which whole
/// members can run, each queue keeping its own order, which a checker tries one by one.
///
/// The model assumes what the fuzzer generates: members are requests and notifications
/// with ids fresh in the batch, and no session method (a barrier) among them.
extension ReferenceModel {
    /// Applies a batch running its members in `order` (indices into `members`); returns the
    /// frames written.
    public mutating func apply(batch members: [Input], order: [Int]) -> [JSONValue] {
        out = []
        applyBatch(members, order: order)
        return out
    }

    mutating func applyBatch(_ members: [Input], order: [Int]) {
        guard !members.isEmpty else {
            out.append(responseJSON(.null, .failure(.invalidRequest("an empty batch"))))
            return
        }
        state.reading = ModelState.BatchReply(
            slots: members.map { member in
                if case .notification = member { return .none }
                return .waiting
            })
        for i in order {
            switch members[i] {
            case .request(let r):
                (answering, currentSlot) = (true, i)
                handle(id: r.id, method: r.method, params: r.params)
            case .notification(let n):
                (answering, currentSlot) = (false, i)
                handle(id: nil, method: n.method, params: n.params)
            case .batch:
                (answering, currentSlot) = (true, i)
                answer(.null, .failure(.invalidRequest("a batch inside a batch")))
            }
        }
        (answering, currentSlot) = (true, nil)
        guard let batch = state.reading else { return }
        state.reading = nil
        if case .reading(let slot)? = state.cancelSlot {
            state.held = batch
            state.cancelSlot = .held(slot)
        } else if let array = batch.array {
            out.append(array)
        }
    }

    /// The pending `waitForCancel` is answered (`response`) or dropped unanswered (nil): into
    /// its batch's slot (the held batch is written once complete), or to the wire.
    mutating func settleCancel(_ response: JSONValue?) {
        let slot: ModelState.BatchReply.Slot = response.map { .answered($0) } ?? .none
        switch state.cancelSlot {
        case .reading(let i)?:
            state.reading?.slots[i] = slot
        case .held(let i)?:
            state.held?.slots[i] = slot
            if let held = state.held, held.isComplete {
                if let array = held.array { out.append(array) }
                state.held = nil
            }
        case nil:
            if let response { out.append(response) }
        }
        state.cancelSlot = nil
    }

    /// Whether a member goes to the main queue under `--dispatch tauri` (an `os/` control).
    static func runsOnMain(_ member: Input) -> Bool {
        if case .request(let r) = member { return r.method.hasPrefix("os/") }
        if case .notification(let n) = member { return n.method.hasPrefix("os/") }
        return false
    }

    /// The order the plugin runs a batch's members in when nothing interleaves: request
    /// order, except under `tauri` with `strict`: the `os/` controls, then the invokes.
    func defaultOrder(_ members: [Input]) -> [Int] {
        guard dispatch == .tauri, profile == .strict else { return Array(members.indices) }
        let main = members.indices.filter { Self.runsOnMain(members[$0]) }
        return main + members.indices.filter { !Self.runsOnMain(members[$0]) }
    }

    /// Every order in which whole members can run under `tauri`: the merges of the `ipc`
    /// members' order with the main members' order.
    public static func interleavings(_ members: [Input]) -> [[Int]] {
        let main = members.indices.filter { runsOnMain(members[$0]) }
        let ipc = members.indices.filter { !runsOnMain(members[$0]) }
        func merge(_ a: ArraySlice<Int>, _ b: ArraySlice<Int>) -> [[Int]] {
            guard let x = a.first else { return [Array(b)] }
            guard let y = b.first else { return [Array(a)] }
            return merge(a.dropFirst(), b).map { [x] + $0 } + merge(a, b.dropFirst()).map { [y] + $0 }
        }
        return merge(ipc[...], main[...])
    }
}

extension ModelState.BatchReply {
    /// No slot waits any more.
    var isComplete: Bool { !slots.contains(.waiting) }

    /// The reply array: the answers in request order (nil when there is none).
    var array: JSONValue? {
        let answers = slots.compactMap { slot -> JSONValue? in
            if case .answered(let v) = slot { return v }
            return nil
        }
        return answers.isEmpty ? nil : .array(answers)
    }
}
