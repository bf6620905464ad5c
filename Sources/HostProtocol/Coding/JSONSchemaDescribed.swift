/// What a wire type tells the OpenRPC document beyond its members' Swift types: the
/// name it is listed under in `components.schemas`, a sentence about it, and notes on
/// members whose Swift type says less than the wire does (a time that cannot be
/// negative, a count, a member's description).
///
/// The members themselves, their JSON types, which are required and which may be
/// `null` are never written here: ``JSONShape`` finds them by decoding the type, so
/// the document cannot list a member the type does not read.
///
/// ```swift
/// extension OSLaunch.Result: JSONSchemaDescribed {
///     public static let schemaDescription = "The launched task."
///     public static let memberNotes: [String: JSONMemberNote] = ["at": .instant]
/// }
/// ```
public protocol JSONSchemaDescribed {
    /// The name under `components.schemas` (members of this type are written as a
    /// `$ref` to it); nil: the schema is written where it is used.
    static var schemaName: String? { get }
    /// One sentence about the type: the schema's `description`.
    static var schemaDescription: String { get }
    /// Notes on members, by wire name.
    static var memberNotes: [String: JSONMemberNote] { get }
}

extension JSONSchemaDescribed {
    /// Written where it is used.
    public static var schemaName: String? { nil }
    /// No notes.
    public static var memberNotes: [String: JSONMemberNote] { [:] }
}

/// A note on one member: its description (for a method's param or an event's member)
/// and keywords that narrow what its Swift type says (`minimum`, or a `$ref` to a
/// narrower named schema, which replaces the derived one).
///
/// ```swift
/// ["seconds": JSONMemberNote("How far, >= 0.", ["minimum": 0])]
/// ```
public struct JSONMemberNote: Hashable, Sendable, ExpressibleByStringInterpolation {
    /// The member's description, or nil.
    public var description: String?
    /// Keywords merged over the derived schema (a `$ref` replaces it).
    public var schema: JSONValue?

    /// A note with a description and, optionally, narrowing keywords.
    public init(_ description: String? = nil, _ schema: JSONValue? = nil) {
        self.description = description
        self.schema = schema
    }

    /// A description only.
    public init(stringLiteral value: String) { self.init(value) }

    /// A moment of the plugin's clock (`Instant`: seconds since start, >= 0).
    public static let instant = JSONMemberNote(nil, ["$ref": "#/components/schemas/Instant"])
    /// A count: an integer >= 0.
    public static let count = JSONMemberNote(nil, ["minimum": 0])

    /// This note with a description.
    public func described(_ text: String) -> JSONMemberNote { JSONMemberNote(text, schema) }
}

/// The schema a scalar type is written with, for ``JSONShape``.
func jsonSchema(_ type: Any.Type) -> JSONValue? {
    (type as? any JSONScalar.Type)?.jsonSchema ?? (type as? any JSONOptional.Type)?.wrappedSchema
}

/// `{"$ref": "#/components/schemas/NAME"}`.
public func jsonSchemaReference(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }
