/// The keyed container of ``JSONValueDecoding``: an object's members by key.
///
/// `decode` requires the member (absent: found `"nothing"`); `decodeIfPresent`
/// follows the decoder's reading (see ``JSONValueDecoder``).
struct JSONKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: JSONObject
    let decoder: JSONValueDecoding

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool { members[key.stringValue]?.isNull ?? true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = members[key.stringValue] else {
            throw JSONDecodingError(path: path(key), expected: jsonExpected(type), found: "nothing")
        }
        return try decoder.read(type, from: value, in: codingPath, key: key)
    }

    // The standard library's defaults for these read `null` as nil; the protocol's
    // strict reading does not, so each goes through `optional(_:forKey:)`.
    // The member types the protocol uses most, read without looking up their kind.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optionalScalar(type, forKey: key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try optionalScalar(type, forKey: key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try optionalScalar(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optionalScalar(type, forKey: key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optionalScalar(type, forKey: key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try optionalScalar(type, forKey: key)
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try requiredScalar(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try requiredScalar(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try requiredScalar(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try requiredScalar(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try requiredScalar(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try requiredScalar(type, forKey: key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try optional(type, forKey: key) }

    /// A required scalar member.
    private func requiredScalar<S: JSONScalar>(_ type: S.Type, forKey key: Key) throws -> S {
        guard let value = members[key.stringValue] else {
            throw JSONDecodingError(path: path(key), expected: S.jsonExpected, found: "nothing")
        }
        guard let s = S(jsonValue: value) else {
            throw JSONDecodingError(path: path(key), expected: S.jsonExpected, found: value.typeName)
        }
        return s
    }

    /// An optional scalar member under the decoder's reading (as ``optional(_:forKey:)``).
    private func optionalScalar<S: JSONScalar>(_ type: S.Type, forKey key: Key) throws -> S? {
        guard let value = members[key.stringValue] else { return nil }
        if let s = S(jsonValue: value) { return s }
        let error = JSONDecodingError(path: path(key), expected: S.jsonExpected, found: value.typeName)
        guard decoder.reading == .lenient else { throw error }
        decoder.record(error)
        return nil
    }

    /// An optional member under the decoder's reading.
    private func optional<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = members[key.stringValue] else { return nil }
        if decoder.reading == .lenient {
            // Lenient: anything but a value of the type, `null` included, is left out.
            guard !value.isNull else {
                decoder.record(JSONDecodingError(path: path(key), expected: jsonExpected(type), found: "null"))
                return nil
            }
            do {
                return try decoder.read(type, from: value, in: codingPath, key: key)
            } catch let error as JSONDecodingError {
                decoder.record(error)
                return nil
            }
        }
        // Strict: `null` is a value only for a type that is itself optional.
        if value.isNull, !(type is any JSONOptional.Type) {
            throw JSONDecodingError(path: path(key), expected: jsonExpected(type), found: "null")
        }
        return try decoder.read(type, from: value, in: codingPath, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try nestedDecoder(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try nestedDecoder(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { try nestedDecoder(key) }

    private func nestedDecoder(_ key: Key) throws -> JSONValueDecoding {
        guard let value = members[key.stringValue] else {
            throw JSONDecodingError(path: path(key), expected: "an object", found: "nothing")
        }
        return JSONValueDecoding(
            value, codingPath: codingPath + [key], reading: decoder.reading, root: decoder.root ?? decoder)
    }

    private func path(_ key: Key) -> String { (codingPath + [key]).jsonPath }
}

/// The unkeyed container of ``JSONValueDecoding``: an array's elements in order.
struct JSONUnkeyedDecoding: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: JSONValueDecoding
    private(set) var currentIndex = 0

    init(elements: [JSONValue], decoder: JSONValueDecoding) {
        self.elements = elements
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = IndexKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw JSONDecodingError(
                path: (codingPath + [index]).jsonPath, expected: jsonExpected(type), found: "nothing")
        }
        let value = try decoder.read(type, from: elements[currentIndex], in: codingPath, key: index)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try nextDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nextDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try nextDecoder() }

    private mutating func nextDecoder() throws -> JSONValueDecoding {
        let index = IndexKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw JSONDecodingError(path: (codingPath + [index]).jsonPath, expected: "a value", found: "nothing")
        }
        defer { currentIndex += 1 }
        return JSONValueDecoding(
            elements[currentIndex], codingPath: codingPath + [index], reading: decoder.reading,
            root: decoder.root ?? decoder)
    }
}

/// An array index as a coding key.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
