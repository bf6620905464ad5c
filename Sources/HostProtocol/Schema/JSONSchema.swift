/// A small JSON Schema validator: the keywords the protocol's OpenRPC document uses.
///
/// It checks an instance against a schema that lives inside a document (an OpenRPC
/// document, say), resolving `$ref`s as JSON Pointers into that document
/// (`"#/components/schemas/TaskKind"`). The package takes no dependencies, so this
/// is written here, small: the keywords it knows are ``JSONSchema/assertionKeywords``
/// (validated) and ``JSONSchema/annotationKeywords`` (ignored, as the specification
/// allows). A schema that uses any other keyword is a mistake in the document, not
/// something to skip silently: ``unsupportedKeywords(in:)`` lists them, and a test
/// keeps the published document free of them.
///
/// ```swift
/// let doc: JSONValue = ["components": ["schemas": ["Kind": ["enum": ["refresh", "processing"]]]]]
/// let schema = JSONSchema(document: doc)
/// schema.validate("refresh", against: ["$ref": "#/components/schemas/Kind"])   // []
/// schema.validate(3, against: ["type": "string"]).first?.message          // "expected string, found number"
/// ```
public struct JSONSchema: Sendable {
    /// The document `$ref`s resolve against.
    public let document: JSONValue

    /// Keywords that constrain an instance.
    public static let assertionKeywords: Set<String> = [
        "$ref", "type", "enum", "const", "properties", "required", "additionalProperties",
        "minProperties", "maxProperties", "items", "minItems", "maxItems", "uniqueItems",
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
        "anyOf", "oneOf", "allOf", "not",
    ]

    /// Keywords that describe and do not constrain (and containers of named schemas).
    public static let annotationKeywords: Set<String> = [
        "$schema", "$id", "$comment", "$defs", "definitions", "title", "description", "default",
        "examples", "format", "deprecated", "readOnly", "writeOnly",
    ]

    /// A validator for schemas inside `document`.
    public init(document: JSONValue) {
        self.document = document
    }

    /// Every way `instance` fails `schema`; empty when it conforms.
    public func validate(_ instance: JSONValue, against schema: JSONValue) -> [SchemaViolation] {
        var run = Validation(schema: self)
        run.check(instance, schema, instancePath: "", schemaPath: "#", refDepth: 0)
        return run.violations
    }

    /// Whether `instance` conforms to `schema`.
    public func accepts(_ instance: JSONValue, _ schema: JSONValue) -> Bool {
        validate(instance, against: schema).isEmpty
    }

    /// Resolves `"#/a/b"` (a JSON Pointer, `~1` for `/` and `~0` for `~`) in the document.
    public func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var node = document
        for token in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences("~1", "/").replacingOccurrences("~0", "~")
            switch node {
            case .object(let object):
                guard let next = object[key] else { return nil }
                node = next
            case .array(let array):
                guard let index = Int(key), array.indices.contains(index) else { return nil }
                node = array[index]
            default:
                return nil
            }
        }
        return node
    }

    /// Keywords in `schema` (and every schema nested in it) that this validator does not
    /// know, as `"path: keyword"`; extension members (`x-...`) are allowed.
    public static func unsupportedKeywords(in schema: JSONValue, path: String = "#") -> [String] {
        guard case .object(let object) = schema else { return [] }
        var found: [String] = []
        for (key, value) in object {
            let here = "\(path)/\(key)"
            if key.hasPrefix("x-") { continue }
            if !assertionKeywords.contains(key), !annotationKeywords.contains(key) {
                found.append("\(path): \(key)")
                continue
            }
            switch key {
            case "properties", "$defs", "definitions":
                for (name, sub) in value.objectValue ?? [:] {
                    found += unsupportedKeywords(in: sub, path: "\(here)/\(name)")
                }
            case "items", "additionalProperties", "not":
                found += unsupportedKeywords(in: value, path: here)
            case "anyOf", "oneOf", "allOf":
                for (i, sub) in (value.arrayValue ?? []).enumerated() {
                    found += unsupportedKeywords(in: sub, path: "\(here)/\(i)")
                }
            default:
                break
            }
        }
        return found
    }
}

/// One way an instance fails a schema.
public struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance, as a JSON Pointer (`""` is the whole instance).
    public var instancePath: String
    /// Which schema keyword failed, as a path from the schema's root (`#/properties/at/type`).
    public var schemaPath: String
    /// What is wrong.
    public var message: String

    /// `"/params/at: expected number, found string (#/properties/at/type)"`.
    public var description: String {
        "\(instancePath.isEmpty ? "(root)" : instancePath): \(message) (\(schemaPath))"
    }
}

extension Substring {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard contains(target) else { return String(self) }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        self[...].replacingOccurrences(target, replacement)
    }
}
