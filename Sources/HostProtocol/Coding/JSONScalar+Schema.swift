// The JSON Schema each scalar is written with in the OpenRPC document.

extension JSONScalar {
    /// Any value (a scalar that says nothing more).
    public static var jsonSchema: JSONValue { [:] }
}

extension JSONStringEnum {
    /// A `$ref` to its named schema, or the list of its raw values (with its
    /// description, when it has one).
    public static var jsonSchema: JSONValue {
        guard let described = self as? any JSONSchemaDescribed.Type else { return enumSchema }
        if let name = described.schemaName { return jsonSchemaReference(name) }
        guard case .object(var o) = enumSchema else { return enumSchema }
        o["description"] = .string(described.schemaDescription)
        return .object(o)
    }

    /// Its raw values, in declaration order.
    public static var enumSchema: JSONValue { ["enum": .array(allCases.map { .string($0.rawValue) })] }
}

extension Bool {
    /// `{"type": "boolean"}`.
    public static var jsonSchema: JSONValue { ["type": "boolean"] }
}

extension Double {
    /// `{"type": "number"}`.
    public static var jsonSchema: JSONValue { ["type": "number"] }
}

extension String {
    /// `{"type": "string"}`.
    public static var jsonSchema: JSONValue { ["type": "string"] }
}

extension Int64 {
    /// `{"type": "integer"}`.
    public static var jsonSchema: JSONValue { ["type": "integer"] }
}

extension Int {
    /// `{"type": "integer"}`.
    public static var jsonSchema: JSONValue { ["type": "integer"] }
}

extension UInt64 {
    /// An integer >= 0.
    public static var jsonSchema: JSONValue { ["type": "integer", "minimum": 0] }
}

extension VirtualTime {
    /// `Time`: seconds on the plugin's clock.
    public static var jsonSchema: JSONValue { jsonSchemaReference("Time") }
}

extension RequestID {
    /// `RequestID`: a string, a number or null.
    public static var jsonSchema: JSONValue { jsonSchemaReference("RequestID") }
}
