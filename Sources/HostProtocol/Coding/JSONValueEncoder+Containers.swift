/// The keyed container of ``JSONValueEncoding``: writes an object's members.
struct JSONKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONValueEncoding
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) { object.set(key.stringValue, .null) }

    // The member types the protocol uses most, written without a dynamic cast.
    mutating func encode(_ value: Bool, forKey key: Key) { object.set(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) { object.set(key.stringValue, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) { object.set(key.stringValue, value.jsonValue) }
    mutating func encode(_ value: Int, forKey key: Key) { object.set(key.stringValue, value.jsonValue) }
    mutating func encode(_ value: Int64, forKey key: Key) { object.set(key.stringValue, value.jsonValue) }
    mutating func encode(_ value: UInt64, forKey key: Key) { object.set(key.stringValue, value.jsonValue) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(key.stringValue, try JSONValueEncoding.encode(value, at: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        nestedEncoder(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        nestedEncoder(key).unkeyedContainer()
    }

    /// An encoder that writes into this same object (how ``Flattened`` members are written).
    mutating func superEncoder() -> any Encoder { JSONValueEncoding(codingPath: codingPath, sharing: object) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { nestedEncoder(key) }

    private func nestedEncoder(_ key: Key) -> JSONValueEncoding {
        object.nestedEncoder(key.stringValue, codingPath: codingPath + [key])
    }
}

/// The unkeyed container of ``JSONValueEncoding``: writes an array's elements.
struct JSONUnkeyedEncoding: UnkeyedEncodingContainer {
    let array: JSONValueEncoding
    let codingPath: [any CodingKey]
    var count: Int { array.elementCount }

    mutating func encodeNil() { nextEncoder().store(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let child = nextEncoder()
        child.store(try JSONValueEncoding.encode(value, at: child.codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        nextEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { nextEncoder().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { nextEncoder() }

    private func nextEncoder() -> JSONValueEncoding { array.nextElement() }
}
