import HostProtocol
import Testing

/// The OpenRPC document is derived from the declarations: ``JSONShape`` records each
/// member's schema, nullability and array elements from its Swift type, and every
/// note a type adds (``JSONSchemaDescribed``) names a member it reads.
@Suite("OpenRPC document: derived from the declarations")
struct OpenRPCDerivationTests {
    struct Probe: Codable, JSONSchemaDescribed {
        var count: Int
        var label: String?
        @ExplicitNull var at: VirtualTime?
        var kinds: [TaskKind]
        var timeout: Double??
        static var schemaDescription: String { "A probe." }
        static var memberNotes: [String: JSONMemberNote] { ["count": .count.described("How many.")] }
    }

    @Test("a member's schema, nullability and elements come from its Swift type")
    func derived() throws {
        let shape = JSONShape.of(Probe.self)
        #expect(shape.order == ["count", "label", "at", "kinds", "timeout"])
        #expect(shape.description == "A probe.")
        #expect(shape.notes["count"]?.description == "How many.")
        let count = try #require(shape.members["count"])
        #expect(count.schema == ["type": "integer"] && count.isRequired && !count.isNullable)
        let label = try #require(shape.members["label"])
        #expect(label.schema == ["type": "string"] && !label.isRequired && !label.isNullable)
        let at = try #require(shape.members["at"])
        #expect(at.schema == ["$ref": "#/components/schemas/Time"] && at.isNullable && at.isAlwaysWritten)
        let kinds = try #require(shape.members["kinds"]?.shape)
        #expect(kinds.isArray && kinds.elementSchema == ["$ref": "#/components/schemas/TaskKind"])
        let timeout = try #require(shape.members["timeout"])
        #expect(timeout.schema == ["type": "number"] && timeout.isNullable && !timeout.isRequired)
    }

    /// The notes of `shape` and of every shape inside it that name no member.
    static func staleNotes(_ shape: JSONShape, at path: String) -> [String] {
        var out = Set(shape.notes.keys).subtracting(shape.members.keys).sorted().map { "\(path).\($0)" }
        for (key, member) in shape.members {
            if let nested = member.shape { out += staleNotes(nested, at: path + "." + key) }
        }
        for element in shape.elements { out += staleNotes(element, at: path + "[]") }
        return out
    }

    @Test("every member note names a member the type reads", arguments: OpenRPCShapeTests.declared)
    func notesNameMembers(_ d: OpenRPCShapeTests.Declared) {
        #expect(Self.staleNotes(d.params, at: d.name) == [])
        if let result = d.result { #expect(Self.staleNotes(result, at: d.name + " result") == []) }
    }

    @Test("every param of every method is described")
    func paramsDescribed() {
        var undescribed: [String] = []
        for method in OpenRPCDocument.value["methods"]?.arrayValue ?? [] {
            for param in method["params"]?.arrayValue ?? [] where (param["description"]?.stringValue ?? "").isEmpty {
                undescribed.append("\(method["name"]?.stringValue ?? "?").\(param["name"]?.stringValue ?? "?")")
            }
        }
        #expect(undescribed == [])
    }

    @Test("the components list every named schema a declared member refers to")
    func namedSchemasExist() {
        let schemas = OpenRPCDocument.value["components"]?["schemas"]?.objectValue ?? [:]
        var missing: Set<String> = []
        func walk(_ v: JSONValue) {
            switch v {
            case .object(let o):
                if let r = o["$ref"]?.stringValue, r.hasPrefix("#/components/schemas/"),
                    schemas[String(r.dropFirst("#/components/schemas/".count))] == nil
                {
                    missing.insert(r)
                }
                for member in o { walk(member.value) }
            case .array(let a): a.forEach(walk)
            default: break
            }
        }
        walk(OpenRPCDocument.value)
        #expect(missing == [])
    }
}
