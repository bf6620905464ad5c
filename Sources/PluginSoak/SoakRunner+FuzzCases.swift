import HostProtocol
import PluginFuzzing
import PluginHost

/// The fuzz cases of each round, and the tap that counts their answers.
extension SoakRunner {
    /// One case: a reset, random steps (ids made unique to the case, so that they
    /// never collide with the connection's own), sometimes malformed frames, and
    /// a `plugin/state` barrier through the connection.
    func runFuzzCase(_ index: Int, rng: inout SplitMix64, on connection: PluginConnection) throws {
        var generator = StepGenerator(seed: settings.seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        var model = ReferenceModel(profile: .seed)
        var bytes: [UInt8] = []
        var ids: [RequestID] = []
        MessageWriter.appendRequest(id: .string("f\(index)-reset"), method: PluginReset.name, params: nil, to: &bytes)
        bytes.append(0x0A)
        ids.append(.string("f\(index)-reset"))
        for _ in 0..<(1 + rng.below(30)) {
            let step = generator.next(model: model)
            _ = model.apply(step.input)
            switch step.input {
            case .request(let r):
                let id: RequestID = r.id == .null ? .null : .string("f\(index)-\(r.id)")
                if id != .null { ids.append(id) }
                MessageWriter.appendRequest(id: id, method: r.method, params: r.params, to: &bytes)
            case .notification(let n):
                MessageWriter.appendNotification(method: n.method, params: n.params, to: &bytes)
            case .batch:
                continue  // the generator makes batches only when asked (`--dispatch tauri`), never here
            }
            bytes.append(0x0A)
            if rng.chance(0.1) {
                bytes += SoakRunner.malformed[rng.below(SoakRunner.malformed.count)]
                bytes.append(0x0A)
            }
        }
        if index % 1000 == 999 {
            // A frame over the 1 MiB limit, discarded as it arrives.
            bytes += [UInt8](repeating: UInt8(ascii: " "), count: (1 << 20) + 1) + Array("x\n".utf8)
        }
        shared.withLock { s in
            for id in ids { s.outstanding[id, default: (0, index)].count += 1 }
            // Entries of earlier cases left now are waits the seed dropped unanswered.
            if index % 64 == 0 { s.outstanding = s.outstanding.filter { $0.value.caseIndex >= index - 1 } }
        }
        do {
            try connection.sendRaw(bytes)
        } catch {
            throw SoakError("cannot write case \(index): \(error)", cause: error)
        }
        let state: JSONValue
        do {
            state = try connection.callBlocking(
                method: PluginStateMethod.name, params: nil, timeout: settings.timeout)
        } catch {
            throw SoakError("fuzz case \(index): the barrier (plugin/state) failed: \(error)", cause: error)
        }
        if state["counters"]?["violations"] != .number(0) {
            record(
                "fuzz case \(index): counters.violations is "
                    + "\(state["counters"]?["violations"]?.description ?? "missing")"
            )
        }
    }

    /// Frames that are not valid requests (their answers have id null).
    static let malformed: [[UInt8]] = [
        Array(#"{"jsonrpc":"2.0","id":"m","method":"#.utf8),
        Array(#"{"jsonrpc":"2.0","id":"m","method":"plugin/state","params":{"label":""#.utf8) + [0xC0, 0xAF]
            + Array(#""}}"#.utf8),
        Array(#"{"jsonrpc":"2.0","id":"m","method":"plugin/state","params":{"label":"\ud800"}}"#.utf8),
        Array("[]".utf8), Array("[1,2]".utf8), Array("{}".utf8), Array(#""x""#.utf8), Array("null".utf8),
        Array(String(repeating: "[", count: 1000).utf8),
        Array(#"{"jsonrpc":"2.0","id":NaN,"method":"plugin/state"}"#.utf8),
        Array(#"{"jsonrpc":"2.0","method":"os/launch","params":7}"#.utf8),
        [0x00, 0xFF, 0xFE, 0x7B],
        Array("\u{FEFF}{}".utf8),
        Array(#"{"jsonrpc":"2.0","id":null,"id":null,"method":"nope"}"#.utf8),
    ]

    func record(_ violation: String) {
        shared.withLock { s in
            s.violationCount += 1
            if s.violations.count < 5 { s.violations.append(violation) }
        }
    }
}
