import HostProtocol
import Testing

/// One instance, one schema, and whether it must conform.
struct SchemaCase: Sendable, CustomTestStringConvertible {
    let instance: String
    let schema: String
    let conforms: Bool
    var testDescription: String { "\(instance) \(conforms ? "conforms to" : "fails") \(schema)" }
    init(_ instance: String, _ schema: String, _ conforms: Bool) {
        self.instance = instance
        self.schema = schema
        self.conforms = conforms
    }
}

@Suite("JSONSchema: keywords")
struct JSONSchemaTests {
    static let document = try! parse(
        """
        {"components":{"schemas":{
          "Kind":{"enum":["refresh","processing"]},
          "Node":{"type":"object","properties":{"next":{"oneOf":[{"type":"null"},\
        {"$ref":"#/components/schemas/Node"}]}},
                  "required":["next"],"additionalProperties":false},
          "Loop":{"$ref":"#/components/schemas/Loop"},
          "a/b~c":{"type":"integer"}
        }}}
        """)

    static let cases: [SchemaCase] = [
        // type, including integer and type lists
        .init("1", #"{"type":"integer"}"#, true),
        .init("1.0", #"{"type":"integer"}"#, true),
        .init("1.5", #"{"type":"integer"}"#, false),
        .init("1e400", #"{"type":"number"}"#, true),
        .init(#""x""#, #"{"type":["number","null"]}"#, false),
        .init("null", #"{"type":["number","null"]}"#, true),
        .init("true", #"{"type":"boolean"}"#, true),
        .init("[]", #"{"type":"object"}"#, false),
        // enum and const compare JSON values, numbers by value
        .init("2.0", #"{"enum":[1,2]}"#, true),
        .init("3", #"{"enum":[1,2]}"#, false),
        .init(#"{"b":1,"a":2}"#, #"{"const":{"a":2,"b":1.0}}"#, true),
        .init(#""-32000""#, #"{"const":-32000}"#, false),
        // objects
        .init(#"{"a":1}"#, #"{"required":["a","b"]}"#, false),
        .init(#"{"a":1,"z":true}"#, #"{"properties":{"a":{"type":"integer"}}}"#, true),
        .init(#"{"a":1,"z":true}"#, #"{"properties":{"a":{}},"additionalProperties":false}"#, false),
        .init(#"{"z":"s"}"#, #"{"additionalProperties":{"type":"string"}}"#, true),
        .init(#"{"z":1}"#, #"{"additionalProperties":{"type":"string"}}"#, false),
        .init("{}", #"{"minProperties":1}"#, false),
        .init(#"{"a":1,"b":2}"#, #"{"maxProperties":1}"#, false),
        // arrays
        .init("[1,2]", #"{"items":{"type":"integer"},"minItems":2,"maxItems":2}"#, true),
        .init(#"[1,"2"]"#, #"{"items":{"type":"integer"}}"#, false),
        .init("[1]", #"{"minItems":2}"#, false),
        .init("[1,1.0]", #"{"uniqueItems":true}"#, false),
        // numbers
        .init("0", #"{"minimum":0}"#, true),
        .init("0", #"{"exclusiveMinimum":0}"#, false),
        .init("-1e400", #"{"minimum":-5}"#, false),
        .init("10", #"{"maximum":9.5}"#, false),
        .init("9", #"{"exclusiveMaximum":9}"#, false),
        // strings count code points
        .init(#""é""#, #"{"maxLength":1}"#, true),
        .init(#""""#, #"{"minLength":1}"#, false),
        // combinators
        .init("1", #"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#, true),
        .init("true", #"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#, false),
        .init("1", #"{"oneOf":[{"type":"number"},{"type":"integer"}]}"#, false),
        .init("1.5", #"{"oneOf":[{"type":"number"},{"type":"integer"}]}"#, true),
        .init("1", #"{"allOf":[{"type":"number"},{"minimum":2}]}"#, false),
        .init("1", #"{"not":{"type":"string"}}"#, true),
        .init(#""s""#, #"{"not":{"type":"string"}}"#, false),
        // boolean schemas
        .init("1", "true", true),
        .init("1", "false", false),
        // $ref, recursive, with escaped pointer tokens
        .init(#""refresh""#, ##"{"$ref":"#/components/schemas/Kind"}"##, true),
        .init(#""other""#, ##"{"$ref":"#/components/schemas/Kind"}"##, false),
        .init(#"{"next":{"next":null}}"#, ##"{"$ref":"#/components/schemas/Node"}"##, true),
        .init(#"{"next":{"next":1}}"#, ##"{"$ref":"#/components/schemas/Node"}"##, false),
        .init("3", ##"{"$ref":"#/components/schemas/a~1b~0c"}"##, true),
        .init("3", ##"{"$ref":"#/components/schemas/Missing"}"##, false),
        .init("3", ##"{"$ref":"#/components/schemas/Loop"}"##, false),
    ]

    @Test(arguments: cases)
    func keyword(_ c: SchemaCase) throws {
        let validator = JSONSchema(document: Self.document)
        let violations = validator.validate(try parse(c.instance), against: try parse(c.schema))
        #expect(violations.isEmpty == c.conforms, "\(violations)")
    }

    @Test func violationsSayWhereAndWhy() throws {
        let schema = try parse(
            #"{"type":"object","required":["at"],"properties":{"params":{"properties":{"at":{"type":"number"}}}}}"#)
        let violations = JSONSchema(document: .null).validate(try parse(#"{"params":{"at":"0"}}"#), against: schema)
        #expect(
            violations.map(\.description) == [
                "(root): missing required member \"at\" (#/required)",
                "/params/at: expected number, found string (#/properties/params/properties/at/type)",
            ])
    }

    @Test func aRefLoopIsReportedNotFollowedForever() throws {
        let violations = JSONSchema(document: Self.document)
            .validate(1, against: try parse(##"{"$ref":"#/components/schemas/Loop"}"##))
        #expect(violations.count == 1)
        #expect(violations.first?.message.contains("loops") == true)
    }

    @Test func unknownKeywordsAreListedNotIgnored() throws {
        let schema = try parse(
            """
            {"type":"object","description":"d","x-note":1,
             "properties":{"a":{"pattern":"^x"},"b":{"items":{"prefixItems":[]}}},
             "oneOf":[{"if":{}}]}
            """)
        #expect(
            JSONSchema.unsupportedKeywords(in: schema).sorted() == [
                "#/oneOf/0: if",
                "#/properties/a: pattern",
                "#/properties/b/items: prefixItems",
            ])
    }

    @Test func resolvesPointersIntoArraysAndObjects() throws {
        let doc = try parse(#"{"a":[{"b":1},{"c~d":2}]}"#)
        let schema = JSONSchema(document: doc)
        #expect(schema.resolve("#/a/1/c~0d") == 2)
        #expect(schema.resolve("#") == doc)
        #expect(schema.resolve("#/a/2") == nil)
        #expect(schema.resolve("other.json#/a") == nil)
    }
}
