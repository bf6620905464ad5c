/// A whole frame's content: one message, or a batch (a JSON array of messages).
public enum Envelope: Hashable, Sendable {
    /// One message on its own.
    case single(Message)
    /// A non-empty batch.
    case batch([Message])

    /// Classifies a parsed frame. An empty array is one `-32600` error, as JSON-RPC 2.0 says.
    public static func classify(_ value: JSONValue) -> Envelope {
        if case .array(let elements) = value {
            if elements.isEmpty {
                return .single(.invalid(id: .null, error: .invalidRequest("empty batch")))
            }
            return .batch(elements.map(Message.classify))
        }
        return .single(Message.classify(value))
    }

    /// Parses and classifies frame bytes; a frame that is not JSON yields the `-32700` error message.
    public static func parse(_ frame: UnsafeRawBufferPointer) -> Envelope {
        // One object (nearly every frame): classified from its members as they are
        // parsed, without building the object.
        if let fields = JSONParser.parseMessageFields(frame) { return .single(Message.classify(fields)) }
        do {
            return classify(try JSONParser.parse(frame))
        } catch {
            return .single(.invalid(id: .null, error: .parseError(error.description)))
        }
    }

    /// Parses and classifies frame bytes held in an array or a slice of one.
    public static func parse(_ frame: ArraySlice<UInt8>) -> Envelope {
        frame.withUnsafeBytes { parse($0) }
    }
}
