/// Reads a `Decodable` type from a ``JSONValue``, with the protocol's error texts.
///
/// Standard library only: it walks the parsed value, so numbers keep their literal
/// text until a type reads them, and every failure is a ``JSONDecodingError`` whose
/// `path`, `expected` and `found` are the ones the hand-written readers gave
/// (`"capabilities.events"`, `"a boolean"`, `"nothing"`). The expected text of a
/// member comes from its type (``JSONScalar/jsonExpected``); a nested type reads
/// as an object.
///
/// Two readings:
/// - ``Reading/strict``: an optional member (`decodeIfPresent`) that is present with
///   the wrong type, `null` included, throws; `null` is a value only for a member
///   whose type is itself optional (`Double??`) or marked ``ExplicitNull``.
/// - ``Reading/lenient``: such a member is left out and recorded instead, which is
///   how the `seed` profile ignores wrong-typed invoke params (the seed's
///   `args[...] as? Double`). Required members still throw.
///
/// ```swift
/// struct Params: Codable { var success: Bool? }
/// let (p, wrong) = try JSONValueDecoder(reading: .lenient).decodeRecording(Params.self, from: ["success": 1])
/// // p.success == nil, wrong == ["\"success\" must be a boolean, got number"]
/// ```
public struct JSONValueDecoder: Sendable {
    /// How optional members with the wrong type are treated.
    public enum Reading: Sendable {
        /// They throw.
        case strict
        /// They are left out and recorded.
        case lenient
    }

    /// The reading.
    public var reading: Reading

    /// A decoder with the given reading (strict by default).
    public init(reading: Reading = .strict) { self.reading = reading }

    /// Reads `type` from `json`; throws the first mismatch.
    public func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws(JSONDecodingError) -> T {
        try decodeRecording(type, from: json).value
    }

    /// Reads `type` from `json`, with the optional members the lenient reading left out.
    public func decodeRecording<T: Decodable>(_ type: T.Type, from json: JSONValue) throws(JSONDecodingError) -> (
        value: T, mismatches: [JSONDecodingError]
    ) {
        // The top value is read by this one decoder (a scalar directly; a nested type
        // through it, not through a second one as `read` would make).
        let decoder = JSONValueDecoding(json, codingPath: [], reading: reading, root: nil)
        do {
            let kind = CodingKind.of(type)
            let value: T
            if case .nested(let validated) = kind {
                value = try T(from: decoder)
                if validated, let rule = value as? any JSONValidated { try rule.validate() }
            } else {
                value = try decoder.read(type, from: json, at: [])
            }
            return (value, decoder.mismatches)
        } catch let error as JSONDecodingError {
            throw error
        } catch {
            throw JSONDecodingError(path: "", expected: "a decodable value", found: "\(error)")
        }
    }
}

/// The `Decoder` over one value.
final class JSONValueDecoding: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let reading: JSONValueDecoder.Reading
    /// The decoder of the whole value, where lenient reads record (nil for that one).
    let root: JSONValueDecoding?
    /// The optional members the lenient reading left out (kept by the root decoder).
    private(set) var mismatches: [JSONDecodingError] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, codingPath: [any CodingKey], reading: JSONValueDecoder.Reading, root: JSONValueDecoding?) {
        self.value = value
        self.codingPath = codingPath
        self.reading = reading
        self.root = root
    }

    /// Records a member the lenient reading left out.
    func record(_ mismatch: JSONDecodingError) { (root ?? self).mismatches.append(mismatch) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw JSONDecodingError(path: codingPath.jsonPath, expected: "an object", found: value.typeName)
        }
        return KeyedDecodingContainer(JSONKeyedDecoding<Key>(members: members, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw JSONDecodingError(path: codingPath.jsonPath, expected: "an array", found: value.typeName)
        }
        return JSONUnkeyedDecoding(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Reads `type` from `value` found at `path`: a scalar directly, anything else
    /// through a nested decoder.
    func read<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
        try read(type, from: value, in: path, key: nil)
    }

    /// The same for the member `key` of the object at `parent` (the path is built only
    /// for an error or a nested value, not for every scalar member).
    func read<T: Decodable>(_ type: T.Type, from value: JSONValue, in parent: [any CodingKey], key: (any CodingKey)?)
        throws -> T
    {
        let kind = CodingKind.of(type)
        if case .scalar(let scalar) = kind {
            guard let t = scalar.read(value, as: T.self) else {
                throw JSONDecodingError(
                    path: parent.jsonPath(then: key), expected: scalar.jsonExpected, found: value.typeName)
            }
            return t
        }
        let path = key.map { parent + [$0] } ?? parent
        // A number type that is not a scalar here would come back through the single
        // value container forever.
        if case .unusedNumber = kind {
            throw JSONDecodingError(path: path.jsonPath, expected: "a number type the protocol uses", found: "\(type)")
        }
        let t = try T(from: JSONValueDecoding(value, codingPath: path, reading: reading, root: root ?? self))
        if case .nested(validated: true) = kind, let validated = t as? any JSONValidated { try validated.validate() }
        return t
    }
}

extension JSONValueDecoding: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value.isNull }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try read(type, from: value, at: codingPath) }
}

/// A type whose members, once read, must also satisfy a rule (a range, a combination).
///
/// ``JSONValueDecoder`` calls ``validate()`` after reading the value, so the rule is
/// declared beside the members instead of in a hand-written reader.
public protocol JSONValidated {
    /// Throws the error the protocol gives when the rule is broken.
    func validate() throws(JSONDecodingError)
}

extension Decoder {
    /// The JSON type name of the value being read (`"object"`), for a custom error.
    var jsonTypeName: String { (self as? JSONValueDecoding)?.value.typeName ?? "a value" }
}

/// A member's expected text, for a type that may not be a scalar.
func jsonExpected(_ type: Any.Type) -> String {
    (type as? any JSONScalar.Type)?.jsonExpected ?? (type as? any JSONOptional.Type)?.wrappedExpected ?? "an object"
}

extension [any CodingKey] {
    /// The path of `key` below this one (this one's when nil).
    func jsonPath(then key: (any CodingKey)?) -> String {
        guard let key else { return jsonPath }
        return (self + [key]).jsonPath
    }

    /// `"capabilities.events"`: the keys joined by dots (an array index as its number).
    var jsonPath: String {
        var path = ""
        for key in self {
            if !path.isEmpty { path += "." }
            path += key.intValue.map(String.init) ?? key.stringValue
        }
        return path
    }
}
