/// Which part of the protocol a method belongs to.
public enum MethodKind: String, Sendable, CaseIterable {
    /// One of the seed plugin's five invokes.
    case invoke
    /// `initialize`, `shutdown`, `plugin/state`, `plugin/reset`.
    case session
    /// An `os/` control: the host playing the operating system.
    case osControl
}

/// A JSON-RPC method the plugin serves: its name, params type and result type in one place.
///
/// Every method of the contract is a case-less enum conforming to this protocol,
/// so a typed call reads `try await connection.call(OSLaunch.self, .init(identifier: id))`.
public protocol RPCMethod {
    /// The params type (``EmptyParams`` when the method takes none).
    associatedtype Params: JSONCodable
    /// The result type (``NullResult`` for `result: null`).
    associatedtype Result: JSONCodable
    /// The method string on the wire.
    static var name: String { get }
    /// Which part of the protocol it belongs to.
    static var kind: MethodKind { get }
}

/// An event the plugin sends as a JSON-RPC notification.
public protocol RPCEvent {
    /// The params type.
    associatedtype Params: JSONCodable
    /// The notification's method string.
    static var name: String { get }
}

/// Params of a method that takes none (unknown members are ignored). Written as
/// `{}`... but callers omit params entirely for these methods. A scalar to the coder:
/// no member to read, so nothing to allocate on the request path.
public struct EmptyParams: JSONCodable, JSONScalar, Hashable {
    /// Creates empty params.
    public init() {}
    /// `"an object"` (never said: any value is accepted).
    public static var jsonExpected: String { "an object" }
    /// Accepts any value (the server has already checked that params are by name).
    public init?(jsonValue: JSONValue) {}
    /// `{}`.
    public var jsonValue: JSONValue { .object([:]) }
    /// An object (any members, ignored).
    public static var jsonSchema: JSONValue { ["type": "object"] }
}

/// The `result: null` of a method that only resolves; a scalar to the coder.
public struct NullResult: JSONCodable, JSONScalar, Hashable {
    /// Creates the null result.
    public init() {}
    /// `"null"`: anything else is an error.
    public static var jsonExpected: String { "null" }
    /// Requires `null`.
    public init?(jsonValue: JSONValue) {
        guard jsonValue.isNull else { return nil }
    }
    /// `null`.
    public var jsonValue: JSONValue { .null }
    /// `{"type": "null"}`.
    public static var jsonSchema: JSONValue { ["type": "null"] }
}
