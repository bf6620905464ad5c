/// `rpc.discover` (this implementation's extension, the OpenRPC convention): answers
/// with the protocol's OpenRPC document, ``OpenRPCDocument/value``.
public enum RPCDiscover: RPCMethod {
    public static let name = "rpc.discover"
    public static let kind = MethodKind.session
    public typealias Params = EmptyParams
    public typealias Result = DiscoveredDocument
}

/// The result of `rpc.discover`: an OpenRPC document, kept as JSON.
public struct DiscoveredDocument: JSONCodable, Hashable {
    /// The whole document.
    public var document: JSONValue

    /// Wraps a document.
    public init(_ document: JSONValue) { self.document = document }

    /// Requires an object with the members OpenRPC makes required (`openrpc`, `info`, `methods`).
    public init(json: JSONValue) throws(JSONDecodingError) {
        let r = try ObjectReader(json)
        _ = try r.require("openrpc", .string)
        _ = try r.require("info", .any)
        _ = try r.require("methods", .any)
        document = json
    }

    public var json: JSONValue { document }
}
