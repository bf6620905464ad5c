/// The YAML an expected-failures baseline may use, read without dependencies: `#`
/// comments, one top-level block list (optionally under the single key
/// `expected-failures:`), each item a scalar (a check id) or a block map of scalars
/// (`check`, `profile`, `reason`). Scalars are plain, "double-quoted" (with `\"`,
/// `\\`, `\n`, `\t`) or 'single-quoted' (`''` for a quote). Anything else (flow
/// collections, anchors, nested blocks, multi-line scalars) is refused with its line.
enum YAMLList {
    /// One list item: its line and its fields (a scalar item is `check`).
    struct Item: Equatable {
        let line: Int
        let fields: [String: String]
    }

    typealias ParseError = ExpectedFailures.ParseError

    /// The items of the list.
    static func items(_ text: String) throws(ParseError) -> [Item] {
        var items: [Item] = []
        // Whether the last item is a map (more `key: value` lines may follow it).
        var lastIsMap = false
        var itemIndent: Int?
        var sawHeader = false
        // Set by `expected-failures: []`: the list is empty, and nothing may follow.
        var emptyListLine: Int?
        for (index, rawLine) in lines(of: text).enumerated() {
            let number = index + 1
            let line = withoutComment(String(rawLine))
            guard !line.allSatisfy({ $0 == " " }) else { continue }
            if let empty = emptyListLine {
                throw ParseError(
                    line: number,
                    message: "line \(empty) says the list is empty (\"expected-failures: []\"), but more follows")
            }
            guard !line.contains("\t") else { throw ParseError(line: number, message: "tabs are not YAML indentation") }
            let indent = line.prefix { $0 == " " }.count
            let content = String(line.dropFirst(indent)).trimmingTrailingSpaces
            if items.isEmpty, itemIndent == nil, !sawHeader, indent == 0, content.hasPrefix("expected-failures:") {
                let rest = content.dropFirst("expected-failures:".count).trimmingLeadingSpaces
                if rest == "[]" {
                    emptyListLine = number
                    continue
                }
                guard rest.isEmpty else {
                    throw ParseError(line: number, message: "expected the list on the next lines")
                }
                sawHeader = true
                continue
            }
            if content.hasPrefix("- ") || content == "-" {
                guard itemIndent == nil || itemIndent == indent else {
                    throw ParseError(line: number, message: "list items must all be indented alike")
                }
                itemIndent = indent
                let rest = String(content.dropFirst(1)).trimmingLeadingSpaces
                guard !rest.isEmpty else { throw ParseError(line: number, message: "an empty list item") }
                if let (key, value) = try pair(rest, line: number) {
                    items.append(Item(line: number, fields: [key: value]))
                    lastIsMap = true
                } else {
                    items.append(Item(line: number, fields: ["check": try scalar(rest, line: number)]))
                    lastIsMap = false
                }
                continue
            }
            // A further key of the map the last item started.
            guard let base = itemIndent, indent > base, lastIsMap, let last = items.last,
                let (key, value) = try pair(content, line: number)
            else {
                throw ParseError(line: number, message: "not a list item (\"- check.id\") nor a key of one: \(content)")
            }
            guard last.fields[key] == nil else { throw ParseError(line: number, message: "\"\(key)\" given twice") }
            var fields = last.fields
            fields[key] = value
            items[items.count - 1] = Item(line: last.line, fields: fields)
        }
        return items
    }

    /// The lines of `text`, ended by `\n`, `\r\n` or `\r` (a file written on Windows
    /// reads as one written elsewhere), a leading byte-order mark dropped.
    static func lines(of text: String) -> [Substring] {
        let body = text.first == "\u{FEFF}" ? text.dropFirst() : Substring(text)
        return body.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    }

    /// `key: value` (a key of letters, digits, `-` and `_`), or nil when the text is not a pair.
    private static func pair(_ text: String, line: Int) throws(ParseError) -> (String, String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let key = String(text[..<colon])
        let after = text[text.index(after: colon)...]
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
            after.isEmpty || after.first == " "
        else { return nil }
        let value = String(after).trimmingLeadingSpaces
        guard !value.isEmpty else { throw ParseError(line: line, message: "\"\(key)\" has no value") }
        return (key, try scalar(value, line: line))
    }

    /// A plain, double-quoted or single-quoted scalar.
    private static func scalar(_ text: String, line: Int) throws(ParseError) -> String {
        let chars = Array(text)
        switch chars.first {
        case "\"":
            var out = ""
            var i = 1
            while i < chars.count {
                switch chars[i] {
                case "\\":
                    guard i + 1 < chars.count else { break }
                    let escapes: [Character: String] = ["\"": "\"", "\\": "\\", "n": "\n", "t": "\t", "/": "/"]
                    guard let e = escapes[chars[i + 1]] else {
                        throw ParseError(line: line, message: "unsupported escape \\\(chars[i + 1])")
                    }
                    out += e
                    i += 2
                    continue
                case "\"":
                    guard i == chars.count - 1 else {
                        throw ParseError(line: line, message: "text after a quoted scalar")
                    }
                    return out
                default:
                    out.append(chars[i])
                }
                i += 1
            }
            throw ParseError(line: line, message: "unterminated double-quoted scalar")
        case "'":
            var out = ""
            var i = 1
            while i < chars.count {
                if chars[i] == "'" {
                    if i + 1 < chars.count, chars[i + 1] == "'" {
                        out.append("'")
                        i += 2
                        continue
                    }
                    guard i == chars.count - 1 else {
                        throw ParseError(line: line, message: "text after a quoted scalar")
                    }
                    return out
                }
                out.append(chars[i])
                i += 1
            }
            throw ParseError(line: line, message: "unterminated single-quoted scalar")
        case let c? where "[{&*!|>%@`".contains(c):
            throw ParseError(
                line: line, message: "\"\(c)\" starts YAML this reader does not take (flow, anchors, blocks)")
        default:
            if text.contains(": ") { throw ParseError(line: line, message: "a nested map is not supported: \(text)") }
            return text
        }
    }

    /// The line without a `#` comment (a `#` at the start or after a space, outside quotes).
    private static func withoutComment(_ line: String) -> String {
        let chars = Array(line)
        var quote: Character?
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let previous: Character = i > 0 ? chars[i - 1] : " "
            if let q = quote {
                if c == "\\", q == "\"" {
                    i += 1
                } else if c == q, q == "'", i + 1 < chars.count, chars[i + 1] == "'" {
                    i += 1
                } else if c == q {
                    quote = nil
                }
            } else if c == "\"" || c == "'" {
                if previous == " " { quote = c }
            } else if c == "#", previous == " " || i == 0 {
                return String(chars[..<i])
            }
            i += 1
        }
        return line
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while let last = s.last, last == " " { s = s.dropLast() }
        return String(s)
    }
}

extension StringProtocol {
    fileprivate var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
