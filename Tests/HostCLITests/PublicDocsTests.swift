import Foundation
import HostTestSupport
import Testing

/// Every public declaration of the package's library targets has a `///` comment (the
/// team's rule): a `public` or `open` declaration, and each case of a public enum, is
/// preceded by a doc comment (attributes and `//` comments may stand between the two).
/// A member implementing a standard protocol requirement (`init(json:)`, `==`,
/// `description`, the literal initializers...) takes the protocol's documentation, as
/// DocC does, and needs none of its own.
@Suite("Public declarations are documented")
struct PublicDocsTests {
    static let root = PackageRoot.url

    /// Every library target: each folder of `Sources/` but the executables' (whose names
    /// are lowercase: `plugin-host`, `background-service-plugin`, `bench-floor`), so that a
    /// new target is covered the day it is added.
    static let targets: [String] = {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? []
        return names.filter { $0.first?.isUppercase == true }.sorted()
    }()

    @Test func everyPublicDeclarationHasADocComment() throws {
        var missing: [String] = []
        var seen = 0
        for target in Self.targets {
            let dir = Self.root.appendingPathComponent("Sources/\(target)")
            let files = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where file.hasSuffix(".swift") {
                let relative = "Sources/\(target)/\(file)"
                let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
                let found = DocScanner.undocumented(in: text)
                seen += found.declarations
                missing += found.lines.map { "\(relative):\($0.number): \($0.text)" }
            }
        }
        #expect(Self.targets.count >= 9, "found only the targets \(Self.targets)")
        #expect(seen > 600, "the scanner found only \(seen) public declarations")
        #expect(missing.isEmpty, "\(missing.count) undocumented:\n\(missing.joined(separator: "\n"))")
    }

    /// The scanner itself: what counts as documented, and what as a declaration.
    @Test func theScannerSeesWhatItShould() {
        let text = """
            /// Documented.
            public struct A {
                public var undocumented = 1
                /// Documented.
                @discardableResult
                // Departs: a plain comment between the two is fine.
                public func f() -> Int { 1 }
                let notPublic = "public var x = { 1 }"
                public static func == (a: A, b: A) -> Bool { true }
            }
            /// An enum.
            public enum E {
                case bare
                /// Documented.
                case documented(String)
                var inner: Int { switch self { case .bare: 0 default: 1 } }
            }
            """
        let found = DocScanner.undocumented(in: text)
        #expect(found.lines.map(\.number) == [3, 13])
        #expect(found.declarations == 6)
    }
}

/// Finds public declarations without a doc comment in Swift source, skipping strings
/// and comments when it tracks braces (to know the cases of a public enum).
enum DocScanner {
    static let declaration = try! NSRegularExpression(
        pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:static|final|nonisolated|override|mutating|"#
            + #"convenience|required|indirect|private\(set\)|package\(set\)|internal\(set\)|lazy)\s+)*"#
            + #"(?:func|var|let|init|struct|class|enum|protocol|typealias|subscript|actor|case)\b"#)
    static let publicEnum = try! NSRegularExpression(pattern: #"^\s*(?:@\w+\s+)*public\s+(?:indirect\s+)?enum\b"#)
    static let enumCase = try! NSRegularExpression(pattern: #"^\s*case\s+\w"#)

    /// Standard protocol requirements, documented by their protocols.
    static let requirements = [
        "init(json: JSONValue)", "var json: JSONValue", "static let name =", "static let kind =",
        "typealias Params =", "typealias Result =", "static func ==", "static func <", "func hash(into",
        "var description: String", "func next() -> UInt64", "init(booleanLiteral", "init(stringLiteral",
        "init(integerLiteral", "init(floatLiteral", "init(arrayLiteral", "init(dictionaryLiteral",
        "func makeIterator()", "let rawValue", "init(rawValue",
    ]

    static func matches(_ regex: NSRegularExpression, _ line: String) -> Bool {
        regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
    }

    /// The undocumented declarations' lines (1-based) and how many declarations there were.
    static func undocumented(in text: String) -> (lines: [(number: Int, text: String)], declarations: Int) {
        let lines = text.components(separatedBy: "\n")
        var inMultiline = false
        var containers: [Bool] = []  // for each open brace: whether it opened a public enum
        var missing: [(Int, String)] = []
        var count = 0
        for (index, line) in lines.enumerated() {
            let code = stripped(line, inMultiline: &inMultiline)
            let inPublicEnum = containers.last == true
            let isRequirement = requirements.contains { code.contains($0) }
            if !isRequirement, matches(declaration, code) || (inPublicEnum && matches(enumCase, code)) {
                count += 1
                if !documented(lines, before: index) {
                    missing.append((index + 1, line.trimmingCharacters(in: .whitespaces)))
                }
            }
            var opensEnum = matches(publicEnum, code)
            for c in code {
                if c == "{" {
                    containers.append(opensEnum)
                    opensEnum = false
                } else if c == "}" {
                    _ = containers.popLast()
                }
            }
        }
        return (missing, count)
    }

    /// Whether the lines above `index`, past attributes and plain comments, end a `///` block.
    static func documented(_ lines: [String], before index: Int) -> Bool {
        var k = index - 1
        while k >= 0 {
            let t = lines[k].trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("///") || t.hasSuffix("*/") { return true }
            guard t.hasPrefix("@") || t.hasPrefix("//") else { return false }
            k -= 1
        }
        return false
    }

    /// The line's code with string literals emptied and a trailing comment cut.
    static func stripped(_ line: String, inMultiline: inout Bool) -> String {
        let chars = Array(line)
        var out = ""
        var i = 0
        func at(_ s: String, _ j: Int) -> Bool {
            let p = Array(s)
            return j + p.count <= chars.count && Array(chars[j..<j + p.count]) == p
        }
        while i < chars.count {
            if inMultiline {
                guard let end = (i..<chars.count).first(where: { at("\"\"\"", $0) }) else { return out }
                i = end + 3
                inMultiline = false
                continue
            }
            if at("//", i) { break }
            if at("\"\"\"", i) || at("#\"\"\"", i) {
                inMultiline = true
                i += chars[i] == "#" ? 4 : 3
                continue
            }
            if chars[i] == "\"" || at("#\"", i) {
                let raw = chars[i] == "#"
                i += raw ? 2 : 1
                while i < chars.count {
                    if !raw, chars[i] == "\\" {
                        i += 2
                        continue
                    }
                    if chars[i] == "\"", !raw || at("\"#", i) {
                        i += raw ? 2 : 1
                        break
                    }
                    i += 1
                }
                out += "\"\""
                continue
            }
            out.append(chars[i])
            i += 1
        }
        return out
    }
}
