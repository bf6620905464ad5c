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
        if case .scalar(let scalar) = CodingKind.of(T.self) { return scalar.jsonValue(of: value) }
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
///
/// One allocation per object or array written: the members live in the encoder
/// itself, and an encoder that writes into another's object (a ``Flattened`` member)
/// holds that encoder instead of members of its own.
final class JSONValueEncoding: Encoder {
    /// What has been written so far.
    enum Kind {
        case empty
        case value
        case object
        case array
    }

    /// Not tracked below the top (nothing the protocol's types write reads it, and
    /// building it for every member costs an array each).
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private(set) var kind = Kind.empty
    /// A scalar's value (``Kind/value``).
    private var value = JSONValue.null
    /// An object's members in the order written (a repeated key: the last wins).
    private var members: [JSONObject.Member] = []
    /// An object's members written through nested encoders, finished when it is.
    private var nested: [(String, JSONValueEncoding)] = []
    /// An array's elements.
    private var elements: [JSONValueEncoding] = []
    /// The encoder whose object this one writes into (flattening), if any.
    private let owner: JSONValueEncoding?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
        owner = nil
    }

    /// An encoder writing into the object `owner` is writing (flattening).
    init(codingPath: [any CodingKey], sharing owner: JSONValueEncoding) {
        self.codingPath = codingPath
        self.owner = owner.owner ?? owner
        self.owner?.beginObject()
    }

    /// The written value, nil when nothing was written.
    var finished: JSONValue? {
        switch kind {
        case .empty: return nil
        case .value: return value
        case .object:
            // Sorted in the encoder's own buffer (no copy), which then holds the result.
            var all: [JSONObject.Member] = []
            swap(&all, &members)
            for (key, child) in nested {
                all.append(JSONObject.Member(key: key, value: child.finished ?? .object([:])))
            }
            nested = []
            let object = JSONObject(written: &all)
            members = object.members
            return .object(object)
        case .array: return .array(elements.map { $0.finished ?? .null })
        }
    }

    /// Stores a finished value (a scalar's).
    func store(_ value: JSONValue) {
        kind = .value
        self.value = value
    }

    /// Adds a member to the object being written.
    func set(_ key: String, _ value: JSONValue) {
        members.append(JSONObject.Member(key: key, value: value))
    }

    /// An encoder for the member `key`, finished with the object.
    func nestedEncoder(_ key: String, codingPath: [any CodingKey]) -> JSONValueEncoding {
        let child = JSONValueEncoding(codingPath: codingPath)
        nested.append((key, child))
        return child
    }

    /// An encoder for the next element of the array being written.
    func nextElement() -> JSONValueEncoding {
        let child = JSONValueEncoding(codingPath: codingPath)
        elements.append(child)
        return child
    }

    /// The number of elements written.
    var elementCount: Int { elements.count }

    /// Makes this an object, if nothing else was written.
    private func beginObject() {
        guard kind != .object else { return }
        kind = .object
        members.reserveCapacity(8)
    }

    /// The value of `value` as JSON: a scalar directly, anything else through a nested encoder.
    static func encode<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> JSONValue {
        if case .scalar(let scalar) = CodingKind.of(T.self) { return scalar.jsonValue(of: value) }
        let child = JSONValueEncoding(codingPath: path)
        try value.encode(to: child)
        return child.finished ?? .object([:])
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let target = owner ?? self
        target.beginObject()
        return KeyedEncodingContainer(JSONKeyedEncoding<Key>(object: target, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        kind = .array
        return JSONUnkeyedEncoding(array: self, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }
}

extension JSONValueEncoding: SingleValueEncodingContainer {
    func encodeNil() { store(.null) }
    func encode<T: Encodable>(_ value: T) throws { store(try Self.encode(value, at: codingPath)) }
}
