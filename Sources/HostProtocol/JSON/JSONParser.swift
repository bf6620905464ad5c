/// Why a text is not JSON this protocol accepts.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Byte offset in the input where the problem was found.
    public let offset: Int
    /// What is wrong, in words.
    public let reason: String

    public var description: String { "\(reason) at byte \(offset)" }
}

/// A strict RFC 8259 JSON parser over bytes.
///
/// Strict means: UTF-8 is validated (overlong forms, surrogates and stray
/// continuation bytes are errors), raw control characters in strings are errors,
/// `\u` escapes must form valid scalars, and nothing but whitespace may follow
/// the value. Nesting deeper than ``maxDepth`` is refused rather than risking
/// the stack. Duplicate object keys keep the last value.
///
/// ```swift
/// let v = try JSONParser.parse(Array(#"{"id":1}"#.utf8))
/// v["id"]   // .number(1)
/// ```
public struct JSONParser: ~Copyable {
    /// The deepest nesting of arrays and objects accepted.
    public static let maxDepth = 256

    let bytes: UnsafeRawBufferPointer
    var index = 0
    var depth = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Parses one JSON text that fills `bytes` (surrounding whitespace allowed).
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw parser.error("unexpected data after the JSON value")
        }
        return value
    }

    /// Parses one JSON text held in an array of bytes.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBytes { raw in Result { () throws(JSONParseError) in try parse(raw) } }.get()
    }

    /// Parses one JSON text held in a slice of bytes.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBytes { raw in Result { () throws(JSONParseError) in try parse(raw) } }.get()
    }

    func error(_ reason: String) -> JSONParseError {
        JSONParseError(offset: index, reason: reason)
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    private mutating func expectLiteral(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        for i in 0..<count {
            guard index + i < bytes.count else { throw error("unexpected end of input") }
            guard bytes[index + i] == word.utf8Start[i] else { throw error("invalid literal") }
        }
        index += count
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSONParser.maxDepth {
            throw error("nesting deeper than \(JSONParser.maxDepth) levels")
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in array") }
            let c = bytes[index]
            index += 1
            if c == UInt8(ascii: "]") { break }
            guard c == UInt8(ascii: ",") else {
                index -= 1
                throw error("expected ',' or ']'")
            }
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in object") }
            guard bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString(knownIn: JSONParser.envelopeKeys)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            if members.isEmpty { members.reserveCapacity(4) }
            members.append(JSONObject.Member(key: key, value: try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in object") }
            let c = bytes[index]
            index += 1
            if c == UInt8(ascii: "}") { break }
            guard c == UInt8(ascii: ",") else {
                index -= 1
                throw error("expected ',' or '}'")
            }
        }
        depth -= 1
        return .object(JSONObject(lastWins: members))
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("invalid number: leading zero") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("invalid number: digit expected after '.'")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("invalid number: digit expected in exponent")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let literal = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return JSONNumber(uncheckedLiteral: literal)
    }
}
