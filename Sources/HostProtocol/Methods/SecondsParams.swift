/// `{seconds}`: a span of virtual time, finite and >= 0: the params of `os/advanceTime`
/// (how far to move the clock) and `os/blockMain` (how long main stays busy). Plain
/// decimals convert to nanoseconds exactly.
///
/// ```swift
/// try await connection.call(OSAdvanceTime.self, SecondsParams(seconds: 900))
/// ```
public struct SecondsParams: JSONCodable, Codable, Hashable {
    enum CodingKeys: String, CodingKey {
        case duration = "seconds"
    }

    /// The span.
    public var duration: VirtualTime

    /// The span in seconds (rounded to the nanosecond).
    public var seconds: Double { duration.seconds }

    /// Creates params from seconds.
    public init(seconds: Double) { duration = VirtualTime(seconds: seconds) ?? .zero }

    /// Creates params from an exact duration.
    public init(duration: VirtualTime) { self.duration = duration }

    /// Reads `seconds`; the rule: not below 0 (in nanoseconds or as written).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        duration = try c.decode(VirtualTime.self, forKey: .duration)
        let written = try c.decode(JSONValue.self, forKey: .duration)
        guard duration.nanoseconds >= 0, written.doubleValue.map({ $0 >= 0 }) ?? true else {
            throw JSONDecodingError(path: "seconds", expected: "a number >= 0", found: "\(written)")
        }
    }
}

extension SecondsParams: JSONSchemaDescribed {
    /// Written where used.
    public static var schemaDescription: String { "A span of virtual time." }
    /// Not below 0.
    public static var memberNotes: [String: JSONMemberNote] {
        ["seconds": JSONMemberNote("Seconds of virtual time, >= 0.", ["type": "number", "minimum": 0])]
    }
}
