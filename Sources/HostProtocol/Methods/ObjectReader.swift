/// Reads typed members of a JSON object, for the few hand-written `init(json:)`s left
/// (`IOSPolicy`, `PluginDispatchSchedule.Params`, `DiscoveredDocument`); every other
/// type is `Codable`, read by ``JSONValueDecoder``.
///
/// Two styles: strict reads (``require(_:_:)``, ``optional(_:_:)``) throw on a
/// wrong type; lenient reads (``lenient(_:_:)``) record the wrong type in
/// ``mismatches`` and return nil, which is how the `seed` profile ignores
/// wrong-typed invoke params while `strict` rejects them.
public struct ObjectReader {
    /// The object's members.
    public let members: JSONObject
    /// A prefix for paths in errors (`"capabilities."`).
    public let pathPrefix: String
    /// Members found with the wrong type by lenient reads.
    public private(set) var mismatches: [JSONDecodingError] = []

    /// Reads an object; throws when `json` is not one.
    public init(_ json: JSONValue, path: String = "") throws(JSONDecodingError) {
        guard case .object(let o) = json else {
            throw JSONDecodingError(path: path, expected: "an object", found: json.typeName)
        }
        members = o
        pathPrefix = path.isEmpty ? "" : path + "."
    }

    /// Reads params that may be absent (treated as `{}`).
    public init(params: JSONValue?) throws(JSONDecodingError) {
        try self.init(params ?? .object([:]))
    }

    /// A required member.
    public func require<T>(_ key: String, _ field: JSONField<T>) throws(JSONDecodingError) -> T {
        guard let value = members[key] else {
            throw JSONDecodingError(path: pathPrefix + key, expected: field.expected, found: "nothing")
        }
        guard let t = field.read(value) else {
            throw JSONDecodingError(path: pathPrefix + key, expected: field.expected, found: value.typeName)
        }
        return t
    }

    /// An optional member: nil when absent, an error when present with the wrong type.
    public func optional<T>(_ key: String, _ field: JSONField<T>) throws(JSONDecodingError) -> T? {
        guard members[key] != nil else { return nil }
        return try require(key, field)
    }

    /// An optional member read leniently: nil when absent or wrong-typed, the latter recorded.
    public mutating func lenient<T>(_ key: String, _ field: JSONField<T>) -> T? {
        guard let value = members[key] else { return nil }
        guard let t = field.read(value) else {
            mismatches.append(
                JSONDecodingError(path: pathPrefix + key, expected: field.expected, found: value.typeName))
            return nil
        }
        return t
    }
}

/// How to read one JSON member as a Swift value.
public struct JSONField<T>: Sendable {
    /// Words for error messages: "a number", "a boolean".
    public let expected: String
    /// The conversion; nil when the value has the wrong type.
    public let read: @Sendable (JSONValue) -> T?

    /// Creates a field reader.
    public init(expected: String, read: @escaping @Sendable (JSONValue) -> T?) {
        self.expected = expected
        self.read = read
    }
}

extension JSONField where T == Double {
    /// A JSON number that fits a finite `Double` (`1e400` does not).
    public static var number: JSONField<Double> { JSONField(expected: "a finite number") { $0.doubleValue } }
}

extension JSONField where T == Bool {
    /// A JSON boolean.
    public static var bool: JSONField<Bool> { JSONField(expected: "a boolean") { $0.boolValue } }
}

extension JSONField where T == String {
    /// A JSON string.
    public static var string: JSONField<String> { JSONField(expected: "a string") { $0.stringValue } }
}

extension JSONField where T == Int64 {
    /// A JSON integer in `Int64` range.
    public static var integer: JSONField<Int64> { JSONField(expected: "an integer") { $0.int64Value } }
}

extension JSONField where T == VirtualTime {
    /// A number of seconds on the plugin's clock.
    public static var time: JSONField<VirtualTime> {
        JSONField(expected: "a finite number of seconds") { value in
            guard case .number(let n) = value else { return nil }
            return VirtualTime(seconds: n)
        }
    }
}

extension JSONField where T == JSONValue {
    /// Any JSON value.
    public static var any: JSONField<JSONValue> { JSONField(expected: "any value") { $0 } }
}

extension JSONField where T: RawRepresentable & CaseIterable & Sendable, T.RawValue == String {
    /// A string that names a case of a string enum.
    public static var oneOf: JSONField<T> {
        let names = T.allCases.map(\.rawValue).joined(separator: ", ")
        return JSONField(expected: "one of \(names)") { $0.stringValue.flatMap(T.init(rawValue:)) }
    }
}

extension JSONField where T: JSONDecodable {
    /// A value read by a decodable type.
    public static var decoded: JSONField<T> {
        JSONField(expected: "an object of the right shape") { try? T(json: $0) }
    }
}

extension JSONField {

    /// An array whose elements are read by `element`.
    public static func array<E>(of element: JSONField<E>) -> JSONField<[E]> where T == [E] {
        JSONField(expected: "an array of \(element.expected)") { value in
            guard let a = value.arrayValue else { return nil }
            var out: [E] = []
            for v in a {
                guard let e = element.read(v) else { return nil }
                out.append(e)
            }
            return out
        }
    }
}
