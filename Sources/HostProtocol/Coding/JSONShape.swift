/// The members a `Decodable` type reads, found by decoding it from a recorder instead
/// of a value: which keys, which are required, which are always written, and the
/// shape of each nested object. It is how the OpenRPC document is checked against the
/// declarations without a second, hand-kept list of members.
///
/// ```swift
/// let shape = JSONShape.of(OSLaunch.Result.self)
/// shape.members.keys.sorted()          // ["at", "identifier", "kind"]
/// shape.members["at"]?.isRequired      // true
/// ```
public struct JSONShape: Hashable, Sendable {
    /// One member of an object.
    public struct Member: Hashable, Sendable {
        /// Read with `decode` (absent: an error), not `decodeIfPresent`.
        public var isRequired: Bool
        /// Written even when nil (``ExplicitNull``), or required.
        public var isAlwaysWritten: Bool
        /// The words its errors use (`"a boolean"`), for a scalar member.
        public var expected: String?
        /// The member's own shape, when it is an object or an array.
        public var shape: JSONShape?
        /// The scalar's schema (``JSONScalar/jsonSchema``), for a scalar member.
        public var schema: JSONValue?
        /// Whether `null` is a value it reads and writes (``ExplicitNull``, `Double??`).
        public var isNullable = false
    }

    /// The object's members by key (empty for a type that reads no member).
    public var members: [String: Member] = [:]
    /// The members' keys in the order they are read (the declaration's order).
    public var order: [String] = []
    /// The shape of an array's elements, for an array of objects.
    public var elements: [JSONShape] = []
    /// Whether the type is read as an array.
    public var isArray = false
    /// The elements' schema, for an array of scalars.
    public var elementSchema: JSONValue?
    /// The type's ``JSONSchemaDescribed/schemaName``.
    public var name: String?
    /// The type's ``JSONSchemaDescribed/schemaDescription``.
    public var description: String?
    /// The type's ``JSONSchemaDescribed/memberNotes``.
    public var notes: [String: JSONMemberNote] = [:]

    /// The shape `type` reads.
    public static func of<T: Decodable>(_ type: T.Type) -> JSONShape {
        let recorder = ShapeRecorder(codingPath: [])
        _ = try? T(from: recorder)
        recorder.shape.describe(as: type)
        return recorder.shape
    }

    /// Takes `type`'s name, description and notes, when it is ``JSONSchemaDescribed``.
    mutating func describe(as type: Any.Type) {
        guard let described = type as? any JSONSchemaDescribed.Type else { return }
        name = described.schemaName
        description = described.schemaDescription
        notes.merge(described.memberNotes) { _, declared in declared }
    }
}

extension JSONScalar {
    /// A value of the type, for ``JSONShape`` to hand to the code that reads one.
    static var sample: Self? {
        for v: JSONValue in [false, 0, "", .null, .array([]), .object([:])] {
            if let s = Self(jsonValue: v) { return s }
        }
        if let cases = (self as? any CaseIterable.Type)?.allCases as? any Collection,
            let first = cases.first(where: { _ in true }) as? Self
        {
            return first
        }
        return nil
    }
}

/// The `Decoder` that records what is read and answers with sample values.
final class ShapeRecorder: Decoder, SingleValueDecodingContainer {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var shape = JSONShape()
    /// Inside an optional flattened member: what is read there is not required.
    var isOptionalRegion = false

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RecordingKeyed<Key>(recorder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { RecordingUnkeyed(recorder: self) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// A top-level `null` is what `NullResult` reads; nested, a value is what is recorded.
    func decodeNil() -> Bool { codingPath.isEmpty }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, shape) = try sample(type, at: codingPath)
        if let shape { self.shape = shape }  // the same value, read through a single-value container
        return value
    }

    /// Adds a flattened type's member notes to this object's (its members are this object's).
    func takeNotes(of type: Any.Type) {
        guard let described = type as? any JSONSchemaDescribed.Type else { return }
        shape.notes.merge(described.memberNotes) { mine, _ in mine }
    }

    /// Runs `body` with its reads recorded as optional.
    func optionally<T>(_ body: () throws -> T) rethrows -> T {
        let outer = isOptionalRegion
        isOptionalRegion = true
        defer { isOptionalRegion = outer }
        return try body()
    }

    /// A sample of `type`, with the shape it read (nil for a scalar).
    func sample<T: Decodable>(_ type: T.Type, at path: [any CodingKey]) throws -> (value: T, shape: JSONShape?) {
        if let scalar = type as? any JSONScalar.Type {
            guard let value = scalar.sample as? T else {
                throw JSONDecodingError(path: path.jsonPath, expected: scalar.jsonExpected, found: "no sample")
            }
            return (value, nil)
        }
        let nested = ShapeRecorder(codingPath: path)
        let value = try T(from: nested)
        nested.shape.describe(as: type)
        return (value, nested.shape)
    }

    /// Records a member read from this object.
    func record(_ key: String, type: Any.Type, required: Bool, shape: JSONShape?) {
        guard shape != nil || shapeIsNew(key) else { return }
        let required = required && !isOptionalRegion
        let alwaysWritten = required || type is any JSONAlwaysWritten.Type
        if self.shape.members[key] == nil { self.shape.order.append(key) }
        self.shape.members[key] = JSONShape.Member(
            isRequired: required, isAlwaysWritten: alwaysWritten,
            expected: (type as? any JSONScalar.Type)?.jsonExpected ?? (type as? any JSONOptional.Type)?.wrappedExpected,
            shape: shape.flatMap { $0.members.isEmpty && !$0.isArray && $0.name == nil ? nil : $0 },
            schema: jsonSchema(type), isNullable: (type as? any JSONOptional.Type)?.acceptsNull ?? false)
    }

    private func shapeIsNew(_ key: String) -> Bool { shape.members[key] == nil }
}

/// A member type that is written even when nil (``ExplicitNull``).
protocol JSONAlwaysWritten {}

extension ExplicitNull: JSONAlwaysWritten {}
