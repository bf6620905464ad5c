/// The keyed container of ``JSONValueEncoding``: writes an object's members.
struct JSONKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONValueEncoding.ObjectStorage
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) { object.members[key.stringValue] = .null }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.members[key.stringValue] = try JSONValueEncoding.encode(value, at: codingPath + [key])
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
        let child = JSONValueEncoding(codingPath: codingPath + [key])
        object.nested.append((key.stringValue, child))
        return child
    }
}

/// The unkeyed container of ``JSONValueEncoding``: writes an array's elements.
struct JSONUnkeyedEncoding: UnkeyedEncodingContainer {
    let array: JSONValueEncoding.ArrayStorage
    let codingPath: [any CodingKey]
    var count: Int { array.elements.count }

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

    private func nextEncoder() -> JSONValueEncoding {
        let child = JSONValueEncoding(codingPath: codingPath + [IndexKey(intValue: array.elements.count)])
        array.elements.append(child)
        return child
    }
}
