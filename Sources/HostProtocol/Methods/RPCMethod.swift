/// A value that can be written as JSON.
public protocol JSONEncodable: Sendable {
    /// The value as JSON.
    var json: JSONValue { get }
}

/// A value that can be read from JSON.
public protocol JSONDecodable: Sendable {
    /// Reads the value; throws when a member is missing or has the wrong type.
    init(json: JSONValue) throws(JSONDecodingError)
}

/// Both directions.
public typealias JSONCodable = JSONEncodable & JSONDecodable

/// Why a JSON value does not have the shape a type needs.
public struct JSONDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where in the value (`"seconds"`, `"serverInfo.name"`, `""` for the whole value).
    public var path: String
    /// What was expected (`"a number"`, `"one of available, denied, restricted"`).
    public var expected: String
    /// What was found (a JSON type name, or `"nothing"`).
    public var found: String

    /// Creates an error.
    public init(path: String, expected: String, found: String) {
        self.path = path
        self.expected = expected
        self.found = found
    }

    public var description: String {
        path.isEmpty ? "expected \(expected), got \(found)" : "\"\(path)\" must be \(expected), got \(found)"
    }
}

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
}
