/// The keywords that look inside objects, arrays, numbers and strings.
extension Validation {
    mutating func checkObject(_ object: JSONObject, _ node: JSONValue, _ instancePath: String, _ schemaPath: String) {
        for name in node["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
            fail(instancePath, "\(schemaPath)/required", "missing required member \"\(name)\"")
        }
        if let min = node["minProperties"]?.int64Value, object.count < min {
            fail(instancePath, "\(schemaPath)/minProperties", "has \(object.count) members, fewer than \(min)")
        }
        if let max = node["maxProperties"]?.int64Value, object.count > max {
            fail(instancePath, "\(schemaPath)/maxProperties", "has \(object.count) members, more than \(max)")
        }
        let properties = node["properties"]?.objectValue ?? [:]
        for (key, value) in object {
            let memberPath = "\(instancePath)/\(Validation.escape(key))"
            if let sub = properties[key] {
                let at = "\(schemaPath)/properties/\(Validation.escape(key))"
                check(value, sub, instancePath: memberPath, schemaPath: at, refDepth: 0)
            } else if let extra = node["additionalProperties"] {
                if extra == .bool(false) {
                    fail(instancePath, "\(schemaPath)/additionalProperties", "member \"\(key)\" is not allowed")
                } else {
                    let at = "\(schemaPath)/additionalProperties"
                    check(value, extra, instancePath: memberPath, schemaPath: at, refDepth: 0)
                }
            }
        }
    }

    mutating func checkArray(_ array: [JSONValue], _ node: JSONValue, _ instancePath: String, _ schemaPath: String) {
        if let min = node["minItems"]?.int64Value, array.count < min {
            fail(instancePath, "\(schemaPath)/minItems", "has \(array.count) items, fewer than \(min)")
        }
        if let max = node["maxItems"]?.int64Value, array.count > max {
            fail(instancePath, "\(schemaPath)/maxItems", "has \(array.count) items, more than \(max)")
        }
        if node["uniqueItems"] == .bool(true) {
            for i in array.indices where array[..<i].contains(where: { Validation.equal($0, array[i]) }) {
                fail("\(instancePath)/\(i)", "\(schemaPath)/uniqueItems", "repeats an earlier item")
            }
        }
        if let items = node["items"] {
            for (i, item) in array.enumerated() {
                check(item, items, instancePath: "\(instancePath)/\(i)", schemaPath: "\(schemaPath)/items", refDepth: 0)
            }
        }
    }

    mutating func checkNumber(_ number: JSONNumber, _ node: JSONValue, _ instancePath: String, _ schemaPath: String) {
        // A literal too large for a Double (1e400) compares as infinite, with its sign.
        let value = number.doubleValue ?? (number.literal.hasPrefix("-") ? -Double.infinity : Double.infinity)
        let bounds: [(String, (Double, Double) -> Bool, String)] = [
            ("minimum", { $0 >= $1 }, "less than"),
            ("maximum", { $0 <= $1 }, "greater than"),
            ("exclusiveMinimum", { $0 > $1 }, "at most"),
            ("exclusiveMaximum", { $0 < $1 }, "at least"),
        ]
        for (keyword, holds, relation) in bounds {
            if let bound = node[keyword]?.doubleValue, !holds(value, bound) {
                fail(instancePath, "\(schemaPath)/\(keyword)", "\(number.literal) is \(relation) \(JSONNumber(bound))")
            }
        }
    }

    mutating func checkString(_ string: String, _ node: JSONValue, _ instancePath: String, _ schemaPath: String) {
        // JSON Schema counts a string's length in code points (Unicode scalars).
        let length = string.unicodeScalars.count
        if let min = node["minLength"]?.int64Value, length < min {
            fail(instancePath, "\(schemaPath)/minLength", "is \(length) characters long, shorter than \(min)")
        }
        if let max = node["maxLength"]?.int64Value, length > max {
            fail(instancePath, "\(schemaPath)/maxLength", "is \(length) characters long, longer than \(max)")
        }
    }

    /// A key as a JSON Pointer token.
    static func escape(_ key: String) -> String {
        guard key.contains("~") || key.contains("/") else { return key }
        var out = ""
        for c in key {
            switch c {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.append(c)
            }
        }
        return out
    }
}
