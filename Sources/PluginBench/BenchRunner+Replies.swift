import HostProtocol
import PluginHost

#if canImport(Glibc)
    import Glibc
#endif

/// The bench's replies, checked: every frame a plugin writes while it is measured must be
/// the one expected (the echo of the line sent, the invoke's answer with the id sent). An
/// event, an unknown id, a second answer or a line that is not JSON stops the bench with
/// a protocol error that shows the frame. On the hot paths the check is a byte comparison
/// with the one reply expected; a second answer is found by the barrier after each block.
extension BenchRunner {
    /// The answer to ``typicalRequest`` (`completeBgTask`, id 123456) when sent through
    /// the pump's `completeBgTask` line (id 1), and to `cancelCancelListener` (id 1).
    static let nullReplyToID1 = Array(#"{"id":1,"jsonrpc":"2.0","result":null}"#.utf8)

    /// The barrier's request to a plugin and its answer.
    static let barrierRequest =
        Array(#"{"id":"bench-barrier","jsonrpc":"2.0","method":"cancelCancelListener"}"#.utf8) + [0x0A]
    static let barrierReply = Array(#"{"id":"bench-barrier","jsonrpc":"2.0","result":null}"#.utf8)
    /// The barrier's line to the Swift echo (echoed as it is, without its newline).
    static let echoBarrier = Array(#"{"id":"bench-barrier","jsonrpc":"2.0","method":"echo"}"#.utf8) + [0x0A]

    /// Runs `body` (reads from `c`) under the deadline of one block, ``Settings/timeout``,
    /// waiting for `what`, which names the block in the message of a failure (``waiting``).
    func guarded<T>(_ c: DirectConnection, _ what: String, _ body: () throws(HostError) -> T) throws(HostError) -> T {
        waiting.set(what)
        return try c.withDeadline(settings.timeout, waitingFor: what, body)
    }

    /// Whether `frame` is exactly `expected`.
    @inline(__always)
    static func same(_ frame: ArraySlice<UInt8>, _ expected: [UInt8]) -> Bool {
        guard frame.count == expected.count else { return false }
        return frame.withUnsafeBytes { a in
            expected.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, b.count) == 0 }
        }
    }

    /// The error for a frame that is not the one expected, showing it (escaped, at most
    /// 200 bytes) and saying what it is: for the Swift echo, which answers with the line
    /// it was sent, only the line.
    static func unexpected(
        _ frame: ArraySlice<UInt8>, expecting what: String, echo: Bool = false, answeredAlready: Bool = false
    ) -> HostError {
        let shown = TerminalText.oneLine(String(decoding: frame.prefix(200), as: UTF8.self))
        let more = frame.count > 200 ? " (\(frame.count) bytes)" : ""
        if echo {
            let again = answeredAlready || same(frame, Array(echoBarrier.dropLast()))
            let got = again ? "a second echo of a line answered already" : "a line it was not sent"
            return .protocolError("expected \(what), got \(got): \(shown)\(more)")
        }
        let kind: String
        switch Envelope.parse(frame) {
        case .single(.notification(let n)): kind = "an event (\(TerminalText.oneLine(n.method))) nobody asked for"
        case .single(.response(let r)) where answeredAlready:
            kind =
                "a second response to id \(TerminalText.oneLine(r.id.description)) (every request was answered already)"
        case .single(.response(let r)): kind = "a response to id \(TerminalText.oneLine(r.id.description))"
        case .single(.request): kind = "a request"
        case .batch: kind = "a batch"
        case .single(.invalid): kind = "a frame that is not a JSON-RPC message"
        }
        return .protocolError("expected \(what), got \(kind): \(shown)\(more)")
    }

    /// Reads the next frame and checks it is `expected`.
    @inline(__always)
    static func expectFrame(
        _ c: DirectConnection, _ expected: [UInt8], _ what: @autoclosure () -> String, echo: Bool = false
    ) throws(HostError) {
        let frame = try c.nextFrame()
        guard same(frame, expected) else { throw unexpected(frame, expecting: what(), echo: echo) }
    }

    /// A blocking call whose answer must be the very next frame: the response to its id.
    /// (``DirectConnection/call(method:params:)`` would keep other frames for later; a
    /// measurement must not, and has a deadline of its own, so no timer per call.)
    static func strictCall(_ c: DirectConnection, method: String, params: JSONValue?) throws(HostError) -> JSONValue {
        let id = c.send(method: method, params: params)
        try c.flush()
        let frame = try c.nextFrame()
        guard case .single(.response(let r)) = Envelope.parse(frame), r.id == id else {
            var earlier = false
            if case .single(.response(let r)) = Envelope.parse(frame), case .number(let n) = r.id,
                case .number(let m) = id, let n = Int(n.literal), let m = Int(m.literal)
            {
                earlier = n < m
            }
            throw unexpected(frame, expecting: "the response to \(method) (id \(id))", answeredAlready: earlier)
        }
        return try r.outcome.mapError(HostError.init).get()
    }

    /// After a block: a request of its own whose answer must be the next frame. Whatever
    /// the plugin wrote beyond the answers counted (a request answered twice, an event) is
    /// found here, so that it is never read as the next block's answers.
    static func barrier(_ c: DirectConnection, echo: Bool = false) throws(HostError) {
        c.sendRaw(echo ? echoBarrier : barrierRequest)
        try c.flush()
        let frame = try c.nextFrame()
        let expected = echo ? Array(echoBarrier.dropLast()) : barrierReply
        guard same(frame, expected) else {
            let what = "the answer to the barrier after a block (every request of the block was answered)"
            throw unexpected(frame, expecting: what, echo: echo, answeredAlready: true)
        }
    }
}
