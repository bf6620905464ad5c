/// A type that keeps its hand-written `init(json:)` and `json` because its reading
/// carries rules no member declaration can say (`IOSPolicy`: durations by wire name,
/// each with its own range, the found value's literal in errors), and takes part in
/// `Codable` declarations through them.
///
/// An error it throws gets the path of the member it is read for (`ios.policy.`).
public protocol JSONHandWritten: JSONCodable, Codable {
    /// A value of the type, for ``JSONShape`` (which cannot read one from nothing).
    static var shapeExample: Self { get }
}

extension JSONHandWritten {
    /// Reads the value with `init(json:)`.
    public init(from decoder: any Decoder) throws {
        if decoder is ShapeRecorder {
            self = Self.shapeExample
            return
        }
        let value = try decoder.singleValueContainer().decode(JSONValue.self)
        do {
            self = try Self(json: value)
        } catch {
            let prefix = decoder.codingPath.jsonPath
            guard !prefix.isEmpty else { throw error }
            throw JSONDecodingError(
                path: error.path.isEmpty ? prefix : prefix + "." + error.path, expected: error.expected,
                found: error.found)
        }
    }

    /// Writes `json`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(json)
    }
}

extension RequestID: JSONScalar {
    /// `"a string, a number or null"`.
    public static var jsonExpected: String { "a string, a number or null" }
    /// An id: a string, a number or `null`.
    public init?(jsonValue: JSONValue) { self.init(json: jsonValue) }
    /// The id as JSON.
    public var jsonValue: JSONValue { json }
}
