/// A string enum whose values are sent as lists (`plugin/dispatchSchedule`'s `choices`),
/// with the noun its list's errors use.
public protocol ListedName: JSONStringEnum, Hashable {
    /// What a list of them is called in errors: `"queue names"`.
    static var listNoun: String { get }
}

/// An optional list of names: absent reads as empty and an empty list is left out. A value
/// that is not an array is `must be an array of queue names, got string`; an element that
/// is not one of the names is `"choices[2]" must be "ipc" or "main", got "x"` (the element
/// as written).
///
/// ```swift
/// struct Params: Codable { @NameList var choices: [DispatchQueueName] }
/// ```
@propertyWrapper
public struct NameList<Name: ListedName>: Codable, Hashable, Sendable {
    /// The names, in order.
    public var wrappedValue: [Name]

    /// Wraps names.
    public init(wrappedValue: [Name]) { self.wrappedValue = wrappedValue }

    /// An array of names.
    public init(from decoder: any Decoder) throws {
        wrappedValue = []
        if decoder is ShapeRecorder { return }
        let value = try decoder.singleValueContainer().decode(JSONValue.self)
        let path = decoder.codingPath.jsonPath
        guard let items = value.arrayValue else {
            throw JSONDecodingError(path: path, expected: "an array of \(Name.listNoun)", found: value.typeName)
        }
        for (i, item) in items.enumerated() {
            guard let name = item.stringValue.flatMap(Name.init(rawValue:)) else {
                let names = Name.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
                throw JSONDecodingError(path: "\(path)[\(i)]", expected: names, found: item.description)
            }
            wrappedValue.append(name)
        }
    }

    /// The names as an array.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(JSONValue.array(wrappedValue.map { .string($0.rawValue) }))
    }
}

extension NameList: JSONOptional {
    static var wrappedExpected: String { "an array of \(Name.listNoun)" }
    static var wrappedSchema: JSONValue? { ["type": "array", "items": Name.jsonSchema] }
    static var acceptsNull: Bool { false }
}

extension KeyedDecodingContainer {
    /// A ``NameList`` member: absent reads as empty.
    public func decode<N>(_ type: NameList<N>.Type, forKey key: Key) throws -> NameList<N> {
        try decodeIfPresent(type, forKey: key) ?? NameList(wrappedValue: [])
    }
}

extension KeyedEncodingContainer {
    /// A ``NameList`` member: an empty list is left out.
    public mutating func encode<N>(_ value: NameList<N>, forKey key: Key) throws {
        guard !value.wrappedValue.isEmpty else { return }
        try encodeIfPresent(value as NameList<N>?, forKey: key)
    }
}
