/// `rpc.discover` (this implementation's extension, the OpenRPC convention): answers
/// with the protocol's OpenRPC document, ``OpenRPCDocument/value``.
public enum RPCDiscover: RPCMethod {
    public static let name = "rpc.discover"
    public static let kind = MethodKind.session
    public typealias Params = EmptyParams
    public typealias Result = DiscoveredDocument
}

/// The result of `rpc.discover`: an OpenRPC document, kept whole as JSON; reading it checks
/// the members OpenRPC makes required (`openrpc`, `info`, `methods`).
public struct DiscoveredDocument: JSONCodable, Codable, Hashable {
    /// The whole document.
    public var document: JSONValue

    /// The members OpenRPC makes required, read to check a document (the rest is kept as is).
    struct Required: Codable {
        /// The OpenRPC version.
        var openrpc: String
        /// The API's title and version.
        var info: JSONValue
        /// The methods.
        var methods: [JSONValue]
    }

    /// Wraps a document.
    public init(_ document: JSONValue) { self.document = document }

    /// Checks the required members, then keeps the whole value.
    public init(from decoder: any Decoder) throws {
        _ = try Required(from: decoder)
        document = try decoder.singleValueContainer().decode(JSONValue.self)
    }

    /// Writes the document.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(document)
    }
}
