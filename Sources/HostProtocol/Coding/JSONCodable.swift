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
