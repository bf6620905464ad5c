extension JSONParser {
    /// Parses a frame that holds one JSON object, keeping only the members a message
    /// is classified by (``Message/Fields``) without building the object: other
    /// members are parsed, so checked, and dropped.
    ///
    /// Nil for anything else (an array, another value, an envelope key given twice,
    /// any error): the full parser then reads the frame, and reports it, as it
    /// always has, so both paths classify every frame the same way.
    static func parseMessageFields(_ bytes: UnsafeRawBufferPointer) -> Message.Fields? {
        var parser = JSONParser(bytes)
        do throws(JSONParseError) {
            return try parser.messageFields()
        } catch {
            return nil
        }
    }

    private mutating func messageFields() throws(JSONParseError) -> Message.Fields? {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        try enter()
        index += 1
        var fields = Message.Fields()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
                let key = try parseString(knownIn: JSONParser.envelopeKeys)
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                skipWhitespace()
                guard try store(key, in: &fields) else { return nil }
                skipWhitespace()
                guard index < bytes.count else { return nil }
                let c = bytes[index]
                index += 1
                if c == UInt8(ascii: "}") { break }
                guard c == UInt8(ascii: ",") else { return nil }
            }
        }
        depth -= 1
        skipWhitespace()
        return index == bytes.count ? fields : nil
    }

    /// Parses the value of member `key` into its field; false when that field is already set.
    private mutating func store(_ key: String, in fields: inout Message.Fields) throws(JSONParseError) -> Bool {
        func set(_ field: inout JSONValue?, _ value: JSONValue) -> Bool {
            if case .some = field { return false }
            field = value
            return true
        }
        switch key {
        case "jsonrpc": return set(&fields.version, try parseValue())
        case "id": return set(&fields.id, try parseValue())
        case "method":
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return set(&fields.method, try parseValue()) }
            return set(&fields.method, .string(try parseString(knownIn: JSONParser.methodNames)))
        case "params": return set(&fields.params, try parseValue())
        case "result": return set(&fields.result, try parseValue())
        case "error": return set(&fields.error, try parseValue())
        default:
            _ = try parseValue()
            return true
        }
    }
}
