/// Writes JSON-RPC message bodies straight to bytes, keys in sorted order,
/// without building an intermediate ``JSONValue`` for the envelope.
///
/// The output is identical to `JSONWriter.write(message.json)`; a test holds
/// the two together. This is the hot path of every reply.
public enum MessageWriter {
    /// Appends a success response: `{"id":…,"jsonrpc":"2.0","result":…}`.
    public static func appendSuccess(id: RequestID, result: JSONValue, to out: inout [UInt8]) {
        out.append(literal: #"{"id":"#)
        appendID(id, to: &out)
        if case .null = result {
            // Nearly every invoke's answer: the rest in one copy.
            out.append(literal: #","jsonrpc":"2.0","result":null}"#)
            return
        }
        out.append(literal: #","jsonrpc":"2.0","result":"#)
        JSONWriter.write(result, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Appends an error response: `{"error":{…},"id":…,"jsonrpc":"2.0"}`.
    public static func appendFailure(id: RequestID, error: RPCError, to out: inout [UInt8]) {
        out.append(literal: #"{"error":{"code":"#)
        out.append(utf8Of: String(error.code.rawValue))
        if let data = error.data {
            out.append(literal: #","data":"#)
            JSONWriter.write(data, to: &out)
        }
        out.append(literal: #","message":"#)
        JSONWriter.writeString(error.message, to: &out)
        out.append(literal: #"},"id":"#)
        appendID(id, to: &out)
        out.append(literal: #","jsonrpc":"2.0""#)
        out.append(UInt8(ascii: "}"))
    }

    /// Appends a response of either kind.
    public static func append(_ response: Response, to out: inout [UInt8]) {
        switch response.outcome {
        case .success(let result): appendSuccess(id: response.id, result: result, to: &out)
        case .failure(let error): appendFailure(id: response.id, error: error, to: &out)
        }
    }

    /// Appends a request: `{"id":…,"jsonrpc":"2.0","method":…,"params":…}`.
    public static func appendRequest(id: RequestID, method: String, params: JSONValue?, to out: inout [UInt8]) {
        out.append(literal: #"{"id":"#)
        appendID(id, to: &out)
        out.append(literal: #","jsonrpc":"2.0""#)
        appendMethodAndParams(method, params, to: &out)
    }

    /// Appends a notification: `{"jsonrpc":"2.0","method":…,"params":…}`.
    public static func appendNotification(method: String, params: JSONValue?, to out: inout [UInt8]) {
        out.append(literal: #"{"jsonrpc":"2.0""#)
        appendMethodAndParams(method, params, to: &out)
    }

    private static func appendMethodAndParams(_ method: String, _ params: JSONValue?, to out: inout [UInt8]) {
        out.append(literal: #","method":"#)
        JSONWriter.writeString(method, to: &out)
        if let params {
            out.append(literal: #","params":"#)
            JSONWriter.write(params, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func appendID(_ id: RequestID, to out: inout [UInt8]) {
        switch id {
        case .number(let n): out.append(utf8Of: n.literal)
        case .string(let s): JSONWriter.writeString(s, to: &out)
        case .null: out.append(literal: "null")
        }
    }
}

extension [UInt8] {
    /// Appends the bytes of a string literal (one copy, no iteration).
    @inline(__always)
    mutating func append(literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes, at once when they are contiguous.
    @inline(__always)
    mutating func append(utf8Of s: String) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if done == nil { append(contentsOf: s.utf8) }
    }
}
