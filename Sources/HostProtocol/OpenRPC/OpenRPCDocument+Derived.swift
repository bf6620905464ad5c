/// Schemas derived from the declarations: a type's members, their JSON types, which
/// are required and which may be `null` come from decoding it with ``JSONShape``; its
/// name, description and member notes from ``JSONSchemaDescribed``. Nothing here lists
/// a member by hand.
extension OpenRPCDocument {
    /// The schema of `type` where it is used: a `$ref` for a named type.
    ///
    /// `writing`: the plugin writes the value (a member is required when it is always
    /// written), rather than reads it (required when reading fails without it).
    static func schema<T: Decodable>(of type: T.Type, writing: Bool) -> JSONValue {
        if let scalar = jsonSchema(type) { return scalar }
        return use(JSONShape.of(type), writing: writing)
    }

    /// The full schema of `type` (its definition under `components.schemas`).
    static func definition<T: Decodable>(of type: T.Type, writing: Bool) -> JSONValue {
        definition(JSONShape.of(type), writing: writing)
    }

    /// The by-name params of a method: one descriptor per member, in declaration
    /// order, described by the type's member notes. Members `T` reads and `base` does
    /// not are marked `x-os: ios`.
    static func params<T: Decodable>(of type: T.Type, iosBeyond base: (any Decodable.Type)? = nil) -> [JSONValue] {
        let shape = JSONShape.of(type)
        let manual = base.map { Set(shapeOf($0).members.keys) }
        return shape.order.compactMap { key in
            guard let m = shape.members[key] else { return nil }
            let description = shape.notes[key]?.description ?? ""
            let schema = member(m, note: shape.notes[key], writing: false)
            if let manual, !manual.contains(key) { return iosParam(key, schema, description) }
            return descriptor(key, schema, required: m.isRequired, description)
        }
    }

    /// A `result` descriptor for a method's declared result type.
    static func result<T: Decodable>(_ type: T.Type, _ description: String) -> JSONValue {
        descriptor("result", schema(of: type, writing: true), description)
    }

    private static func shapeOf(_ type: any Decodable.Type) -> JSONShape {
        func open<T: Decodable>(_ t: T.Type) -> JSONShape { JSONShape.of(t) }
        return open(type)
    }

    private static func use(_ shape: JSONShape, writing: Bool) -> JSONValue {
        if let name = shape.name { return ref(name) }
        if shape.isArray {
            let items = shape.elements.first.map { use($0, writing: writing) } ?? shape.elementSchema ?? [:]
            return ["type": "array", "items": items]
        }
        return definition(shape, writing: writing)
    }

    private static func definition(_ shape: JSONShape, writing: Bool) -> JSONValue {
        if shape.isArray {
            var unnamed = shape
            unnamed.name = nil
            return use(unnamed, writing: writing)
        }
        var properties = JSONObject()
        var required: [String] = []
        for key in shape.order {
            guard let m = shape.members[key] else { continue }
            properties[key] = member(m, note: shape.notes[key], writing: writing)
            if writing ? m.isAlwaysWritten : m.isRequired { required.append(key) }
        }
        var o: JSONObject = [
            "type": "object", "properties": .object(properties),
            "required": .array(required.sorted().map { .string($0) }),
        ]
        if let description = shape.description { o["description"] = .string(description) }
        return .object(o)
    }

    private static func member(_ m: JSONShape.Member, note: JSONMemberNote?, writing: Bool) -> JSONValue {
        var s = m.shape.map { use($0, writing: writing) } ?? m.schema ?? [:]
        if let narrowing = note?.schema?.objectValue {
            // Bounds narrow the derived schema; anything else says all there is to say.
            guard narrowing.allSatisfy({ Self.bounds.contains($0.key) }) else { return .object(narrowing) }
            if case .object(var o) = s {
                for member in narrowing { o[member.key] = member.value }
                s = .object(o)
            }
        }
        return m.isNullable ? nullable(s) : s
    }

    private static let bounds: Set<String> = ["minimum", "maximum"]

    /// `s` or `null`: `{"type": [t, "null"]}` for a plain type (bounds kept: they do not
    /// apply to `null`), else an `anyOf`.
    static func nullable(_ s: JSONValue) -> JSONValue {
        if case .object(var o) = s, let type = o["type"]?.stringValue,
            o.keys.allSatisfy({ $0 == "type" || Self.bounds.contains($0) })
        {
            o["type"] = [.string(type), "null"]
            return .object(o)
        }
        return ["anyOf": [s, ["type": "null"]]]
    }
}
