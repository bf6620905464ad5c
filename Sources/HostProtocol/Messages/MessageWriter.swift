/// Writes JSON-RPC message bodies straight to bytes, keys in sorted order,
/// without building an intermediate ``JSONValue`` for the envelope.
///
/// The output is identical to `JSONWriter.write(message.json)`; a test holds
/// the two together. This is the hot path of every reply.
public enum MessageWriter {
    private static let version = Array(#""jsonrpc":"2.0""#.utf8)

    /// Appends a success response: `{"id":…,"jsonrpc":"2.0","result":…}`.
    public static func appendSuccess(id: RequestID, result: JSONValue, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        appendID(id, to: &out)
        out.append(UInt8(ascii: ","))
        out.append(contentsOf: version)
        out.append(contentsOf: #","result":"#.utf8)
        JSONWriter.write(result, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Appends an error response: `{"error":{…},"id":…,"jsonrpc":"2.0"}`.
    public static func appendFailure(id: RequestID, error: RPCError, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"error":{"code":"#.utf8)
        out.append(contentsOf: String(error.code.rawValue).utf8)
        if let data = error.data {
            out.append(contentsOf: #","data":"#.utf8)
            JSONWriter.write(data, to: &out)
        }
        out.append(contentsOf: #","message":"#.utf8)
        JSONWriter.writeString(error.message, to: &out)
        out.append(contentsOf: #"},"id":"#.utf8)
        appendID(id, to: &out)
        out.append(UInt8(ascii: ","))
        out.append(contentsOf: version)
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
        out.append(contentsOf: #"{"id":"#.utf8)
        appendID(id, to: &out)
        out.append(UInt8(ascii: ","))
        out.append(contentsOf: version)
        appendMethodAndParams(method, params, to: &out)
    }

    /// Appends a notification: `{"jsonrpc":"2.0","method":…,"params":…}`.
    public static func appendNotification(method: String, params: JSONValue?, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        out.append(contentsOf: version)
        appendMethodAndParams(method, params, to: &out)
    }

    private static func appendMethodAndParams(_ method: String, _ params: JSONValue?, to out: inout [UInt8]) {
        out.append(contentsOf: #","method":"#.utf8)
        JSONWriter.writeString(method, to: &out)
        if let params {
            out.append(contentsOf: #","params":"#.utf8)
            JSONWriter.write(params, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func appendID(_ id: RequestID, to out: inout [UInt8]) {
        switch id {
        case .number(let n): out.append(contentsOf: n.literal.utf8)
        case .string(let s): JSONWriter.writeString(s, to: &out)
        case .null: out.append(contentsOf: "null".utf8)
        }
    }
}
