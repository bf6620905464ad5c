/// One validation run: walks instance and schema together, collecting violations.
struct Validation {
    let schema: JSONSchema
    var violations: [SchemaViolation] = []

    /// `$ref`s followed without consuming any of the instance before a loop is assumed.
    static let maxRefDepth = 64

    init(schema: JSONSchema) {
        self.schema = schema
    }

    /// Records one violation: where in the instance, which keyword of the schema, and why.
    mutating func fail(_ instancePath: String, _ schemaPath: String, _ message: String) {
        violations.append(SchemaViolation(instancePath: instancePath, schemaPath: schemaPath, message: message))
    }

    mutating func check(
        _ instance: JSONValue, _ node: JSONValue, instancePath: String, schemaPath: String, refDepth: Int
    ) {
        switch node {
        case .bool(true):
            return
        case .bool(false):
            fail(instancePath, schemaPath, "no value is allowed here")
            return
        case .object:
            break
        default:
            fail(instancePath, schemaPath, "the schema is a \(node.typeName), not an object or a boolean")
            return
        }
        if let reference = node["$ref"] {
            checkReference(instance, reference, instancePath: instancePath, schemaPath: schemaPath, refDepth: refDepth)
        }
        checkType(instance, node, instancePath, schemaPath)
        checkValues(instance, node, instancePath, schemaPath)
        checkCombinators(instance, node, instancePath: instancePath, schemaPath: schemaPath, refDepth: refDepth)
        switch instance {
        case .object(let object): checkObject(object, node, instancePath, schemaPath)
        case .array(let array): checkArray(array, node, instancePath, schemaPath)
        case .number(let number): checkNumber(number, node, instancePath, schemaPath)
        case .string(let string): checkString(string, node, instancePath, schemaPath)
        default: break
        }
    }

    private mutating func checkReference(
        _ instance: JSONValue, _ reference: JSONValue, instancePath: String, schemaPath: String, refDepth: Int
    ) {
        let here = "\(schemaPath)/$ref"
        guard let text = reference.stringValue, let target = schema.resolve(text) else {
            fail(instancePath, here, "unresolvable $ref \(reference)")
            return
        }
        guard refDepth < Validation.maxRefDepth else {
            fail(instancePath, here, "$ref \(text) loops without consuming the instance")
            return
        }
        check(instance, target, instancePath: instancePath, schemaPath: text, refDepth: refDepth + 1)
    }

    private mutating func checkType(
        _ instance: JSONValue, _ node: JSONValue, _ instancePath: String, _ schemaPath: String
    ) {
        guard let type = node["type"] else { return }
        let allowed = type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? []
        guard !allowed.contains(where: { Validation.instance(instance, hasType: $0) }) else { return }
        let expected = allowed.count == 1 ? allowed[0] : "one of \(allowed.joined(separator: ", "))"
        fail(instancePath, "\(schemaPath)/type", "expected \(expected), found \(instance.typeName)")
    }

    /// JSON Schema's types: `integer` is a number with no fractional part (`1.0` counts).
    static func instance(_ instance: JSONValue, hasType type: String) -> Bool {
        switch (type, instance) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string),
            ("array", .array), ("object", .object):
            true
        case ("integer", .number(let n)):
            n.int64Value != nil || n.doubleValue.map { $0.rounded() == $0 } == true
        default:
            false
        }
    }

    private mutating func checkValues(
        _ instance: JSONValue, _ node: JSONValue, _ instancePath: String, _ schemaPath: String
    ) {
        if let options = node["enum"]?.arrayValue, !options.contains(where: { Validation.equal($0, instance) }) {
            fail(instancePath, "\(schemaPath)/enum", "\(instance) is not one of \(JSONValue.array(options))")
        }
        if let constant = node["const"], !Validation.equal(constant, instance) {
            fail(instancePath, "\(schemaPath)/const", "expected \(constant), found \(instance)")
        }
    }

    /// JSON equality: numbers by value (`1` equals `1.0`), objects whatever their key order.
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            if let dx = x.doubleValue, let dy = y.doubleValue { return dx == dy }
            return x.literal == y.literal
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count
                && x.allSatisfy { member in y[member.key].map { equal(member.value, $0) } == true }
        default:
            return a == b
        }
    }

    private mutating func checkCombinators(
        _ instance: JSONValue, _ node: JSONValue, instancePath: String, schemaPath: String, refDepth: Int
    ) {
        for (keyword, list) in [("allOf", node["allOf"]), ("anyOf", node["anyOf"]), ("oneOf", node["oneOf"])] {
            guard let branches = list?.arrayValue else { continue }
            var failures: [[SchemaViolation]] = []
            for (i, branch) in branches.enumerated() {
                var sub = Validation(schema: schema)
                let at = "\(schemaPath)/\(keyword)/\(i)"
                sub.check(instance, branch, instancePath: instancePath, schemaPath: at, refDepth: refDepth)
                failures.append(sub.violations)
            }
            let passed = failures.filter(\.isEmpty).count
            switch keyword {
            case "allOf":
                violations += failures.flatMap { $0 }
            case "anyOf" where passed == 0:
                let why = "matches none of \(branches.count) alternatives: \(Validation.summary(failures))"
                fail(instancePath, "\(schemaPath)/anyOf", why)
            case "oneOf" where passed != 1:
                let why = passed == 0 ? "none: \(Validation.summary(failures))" : "\(passed) of them"
                let message = "must match exactly one of \(branches.count) alternatives, matches \(why)"
                fail(instancePath, "\(schemaPath)/oneOf", message)
            default:
                break
            }
        }
        if let negated = node["not"] {
            var sub = Validation(schema: schema)
            let at = "\(schemaPath)/not"
            sub.check(instance, negated, instancePath: instancePath, schemaPath: at, refDepth: refDepth)
            if sub.violations.isEmpty {
                fail(instancePath, at, "must not match the schema under `not`")
            }
        }
    }

    /// The first problem of each failed alternative, for one readable line.
    private static func summary(_ failures: [[SchemaViolation]]) -> String {
        failures.compactMap { $0.first?.description }.joined(separator: "; ")
    }
}
