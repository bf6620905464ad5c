/// The keyed container of ``ShapeRecorder``: every key is there, every value a sample.
struct RecordingKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: ShapeRecorder
    var codingPath: [any CodingKey] { recorder.codingPath }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try read(type, key, required: true)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try read(type, key, required: false) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try read(type, key, required: false) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try read(type, key, required: false) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try read(type, key, required: false)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try read(type, key, required: false)
    }

    private func read<T: Decodable>(_ type: T.Type, _ key: Key, required: Bool) throws -> T {
        let (value, shape) = try recorder.sample(type, at: codingPath + [key])
        recorder.record(key.stringValue, type: type, required: required, shape: shape)
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw JSONDecodingError(path: key.stringValue, expected: "a declared member", found: "a nested container")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw JSONDecodingError(path: key.stringValue, expected: "a declared member", found: "a nested container")
    }

    func superDecoder() throws -> any Decoder { recorder }
    func superDecoder(forKey key: Key) throws -> any Decoder { recorder }
}

/// The unkeyed container of ``ShapeRecorder``: one sample element.
struct RecordingUnkeyed: UnkeyedDecodingContainer {
    let recorder: ShapeRecorder
    var codingPath: [any CodingKey] { recorder.codingPath }
    var count: Int? { 1 }
    var isAtEnd: Bool { currentIndex > 0 }
    var currentIndex = 0

    init(recorder: ShapeRecorder) { self.recorder = recorder }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, shape) = try recorder.sample(type, at: codingPath + [IndexKey(intValue: 0)])
        recorder.shape.isArray = true
        if let shape { recorder.shape.elements = [shape] } else { recorder.shape.elementSchema = jsonSchema(type) }
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw JSONDecodingError(path: "", expected: "a declared element", found: "a nested container")
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw JSONDecodingError(path: "", expected: "a declared element", found: "a nested container")
    }

    mutating func superDecoder() throws -> any Decoder { recorder }
}
