/// Writes an `Encodable` type as a ``JSONValue``.
///
/// Standard library only; the bytes come from ``JSONWriter`` as before, so key order
/// (UTF-8 byte order) and number text are the project's. An optional member that is
/// nil is left out (`encodeIfPresent`), except one marked ``ExplicitNull``, which is
/// written as `null`; a `Double??` member holding `.some(nil)` is written as `null`.
///
/// ```swift
/// struct Result: Codable { var now: VirtualTime }
/// JSONValueEncoder().encode(Result(now: .zero))   // {"now":0}
/// ```
public struct JSONValueEncoder: Sendable {
    /// An encoder.
    public init() {}

    /// The value as JSON (`{}` for a type that writes no member).
    public func encode<T: Encodable>(_ value: T) -> JSONValue {
        if let scalar = value as? any JSONScalar { return scalar.jsonValue }
        let encoder = JSONValueEncoding(codingPath: [])
        do {
            try value.encode(to: encoder)
        } catch {
            preconditionFailure("JSONValueEncoder: \(T.self) threw \(error)")
        }
        return encoder.finished ?? .object([:])
    }
}

/// The `Encoder`: collects one value, an object's members or an array's elements.
final class JSONValueEncoding: Encoder {
    /// What has been written so far.
    enum Storage {
        case empty
        case value(JSONValue)
        case object(ObjectStorage)
        case array(ArrayStorage)
    }

    /// An object being written, members in the order written (a repeated key: the last
    /// wins); nested encoders are finished when it is.
    final class ObjectStorage {
        var members: [JSONObject.Member] = []
        var nested: [(String, JSONValueEncoding)] = []

        init() { members.reserveCapacity(8) }

        func set(_ key: String, _ value: JSONValue) { members.append(JSONObject.Member(key: key, value: value)) }
    }

    /// An array being written.
    final class ArrayStorage {
        var elements: [JSONValueEncoding] = []
    }

    /// Not tracked below the top (nothing the protocol's types write reads it, and
    /// building it for every member costs an array each).
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private(set) var storage = Storage.empty

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    /// An encoder writing into an object another encoder is writing (flattening).
    init(codingPath: [any CodingKey], sharing object: ObjectStorage) {
        self.codingPath = codingPath
        storage = .object(object)
    }

    /// The written value, nil when nothing was written.
    var finished: JSONValue? {
        switch storage {
        case .empty: return nil
        case .value(let v): return v
        case .object(let o):
            var members = o.members
            for (key, child) in o.nested {
                members.append(JSONObject.Member(key: key, value: child.finished ?? .object([:])))
            }
            return .object(JSONObject(lastWins: members))
        case .array(let a): return .array(a.elements.map { $0.finished ?? .null })
        }
    }

    /// Stores a finished value (a scalar's).
    func store(_ value: JSONValue) { storage = .value(value) }

    /// The value of `value` as JSON: a scalar directly, anything else through a nested encoder.
    static func encode<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> JSONValue {
        if let scalar = value as? any JSONScalar { return scalar.jsonValue }
        let child = JSONValueEncoding(codingPath: path)
        try value.encode(to: child)
        return child.finished ?? .object([:])
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: ObjectStorage
        if case .object(let existing) = storage {
            object = existing
        } else {
            object = ObjectStorage()
            storage = .object(object)
        }
        return KeyedEncodingContainer(JSONKeyedEncoding<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: ArrayStorage
        if case .array(let existing) = storage {
            array = existing
        } else {
            array = ArrayStorage()
            storage = .array(array)
        }
        return JSONUnkeyedEncoding(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }
}

extension JSONValueEncoding: SingleValueEncodingContainer {
    func encodeNil() { storage = .value(.null) }
    func encode<T: Encodable>(_ value: T) throws { storage = .value(try Self.encode(value, at: codingPath)) }
}
