/// The protocol's JSON API derived from `Codable`: a type declares its members once
/// (with `Codable` synthesized) and gets `init(json:)`, `json` and `lenient(_:)`
/// through ``JSONValueDecoder`` and ``JSONValueEncoder``.
///
/// ```swift
/// public struct Params: JSONCodable, Codable, Hashable {
///     public var success: Bool?
/// }
/// try Params(json: ["success": true]).success   // true
/// Params(success: false).json                   // {"success":false}
/// ```
extension JSONDecodable where Self: Decodable {
    /// The strict reading: a missing required member or a wrong-typed member throws.
    public init(json: JSONValue) throws(JSONDecodingError) {
        self = try JSONValueDecoder().decode(Self.self, from: json)
    }

    /// The lenient reading (the `seed` profile): wrong-typed optional members, `null`
    /// included, are left out and listed.
    public static func lenient(_ json: JSONValue) throws(JSONDecodingError) -> (Self, [JSONDecodingError]) {
        let (value, mismatches) = try JSONValueDecoder(reading: .lenient).decodeRecording(Self.self, from: json)
        return (value, mismatches)
    }
}

extension JSONEncodable where Self: Encodable {
    /// The value as JSON (nil optional members left out).
    public var json: JSONValue { JSONValueEncoder().encode(self) }
}
