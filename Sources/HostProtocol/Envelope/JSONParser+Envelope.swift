#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension JSONParser {
    /// The contract's method and event names (a `method` member is one of them, nearly always).
    static let methodNames = StringTable(MethodRegistry.methods.map(\.name) + MethodRegistry.events)

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
                let key = try envelopeKey()
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

    /// The members ``Message/Fields`` keeps.
    private enum Key {
        case version, id, method, params, result, error, other
    }

    /// Parses a key: an envelope key written plainly is recognised by its bytes,
    /// anything else is parsed as a string and compared as `Message.classify` does.
    private mutating func envelopeKey() throws(JSONParseError) -> Key {
        let start = index + 1
        var end = start
        while end < bytes.count, end - start < 8, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            func plain(_ name: StaticString) -> Bool {
                memcmp(bytes.baseAddress! + start, name.utf8Start, end - start) == 0
            }
            let key: Key? =
                switch end - start {
                case 2: plain("id") ? .id : nil
                case 5: plain("error") ? .error : nil
                case 6: plain("method") ? .method : plain("params") ? .params : plain("result") ? .result : nil
                case 7: plain("jsonrpc") ? .version : nil
                default: nil
                }
            if let key {
                index = end + 1
                return key
            }
        }
        switch try parseString() {
        case "jsonrpc": return .version
        case "id": return .id
        case "method": return .method
        case "params": return .params
        case "result": return .result
        case "error": return .error
        default: return .other
        }
    }

    /// Parses the value of member `key` into its field; false when that field is already set.
    private mutating func store(_ key: Key, in fields: inout Message.Fields) throws(JSONParseError) -> Bool {
        func set(_ field: inout JSONValue?, _ value: JSONValue) -> Bool {
            if case .some = field { return false }
            field = value
            return true
        }
        let isString = index < bytes.count && bytes[index] == UInt8(ascii: "\"")
        switch key {
        case .version:
            let value = isString ? .string(try parseString(knownIn: JSONParser.versions)) : try parseValue()
            return set(&fields.version, value)
        case .id: return set(&fields.id, try parseValue())
        case .method:
            let value = isString ? .string(try parseString(knownIn: JSONParser.methodNames)) : try parseValue()
            return set(&fields.method, value)
        case .params: return set(&fields.params, try parseValue())
        case .result: return set(&fields.result, try parseValue())
        case .error: return set(&fields.error, try parseValue())
        case .other:
            _ = try parseValue()
            return true
        }
    }
}
