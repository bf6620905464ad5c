import HostProtocol

/// Frames waiting to be written to stdout, in the order they were produced.
///
/// Everything the plugin says (responses, batch replies, events) is appended
/// here by the serial owner; the runtime writes the bytes out after each chunk
/// of input or timer work, so several ready frames leave in one `write(2)`.
final class OutputBuffer {
    /// The framing replies use: the detected one (ndjson until detection).
    var framing: Framing = .ndjson
    /// Whether events are written (else dropped).
    var eventsEnabled = false
    /// Fault `reply-framing-ndjson`: ignore the detected framing.
    var forceNDJSON = false
    // Not `@exclusivity(unchecked)` as the invoke path's other hot properties are: `drain`
    // reads it while a caller's closure runs, which could write more output.
    private(set) var bytes: [UInt8] = []
    private var body: [UInt8] = []

    /// Takes the pending bytes, leaving the buffer empty.
    func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Passes the pending bytes to `body`, then empties the buffer, keeping its storage.
    func drain(_ body: (UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes(body)
        bytes.removeAll(keepingCapacity: true)
    }

    var isEmpty: Bool { bytes.isEmpty }

    private var effectiveFraming: Framing { forceNDJSON ? .ndjson : framing }

    /// Writes one framed body produced by `fill`.
    private func frame(_ fill: (inout [UInt8]) -> Void) {
        if effectiveFraming == .ndjson {
            fill(&bytes)
            bytes.append(0x0A)
        } else {
            body.removeAll(keepingCapacity: true)
            fill(&body)
            FrameEncoder.append(body, framing: .lsp, to: &bytes)
        }
    }

    /// Appends bytes as they are, unframed (host-facing faults only).
    func appendRaw(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    /// Writes a response.
    func write(_ response: Response) {
        write(id: response.id, response.outcome)
    }

    /// Writes the response to `id`.
    func write(id: RequestID, _ outcome: Result<JSONValue, RPCError>) {
        switch outcome {
        case .success(let result): frame { MessageWriter.appendSuccess(id: id, result: result, to: &$0) }
        case .failure(let error): frame { MessageWriter.appendFailure(id: id, error: error, to: &$0) }
        }
    }

    /// Writes a batch reply (a JSON array of responses), from its responses serialized.
    func write(batch responses: [[UInt8]]) {
        frame { out in
            out.append(UInt8(ascii: "["))
            for (i, r) in responses.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: r)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// Writes an event notification when events are on.
    func writeEvent(_ method: String, _ params: JSONValue) {
        guard eventsEnabled else { return }
        frame { MessageWriter.appendNotification(method: method, params: params, to: &$0) }
    }
}
