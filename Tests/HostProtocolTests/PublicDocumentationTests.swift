import Foundation
import Testing

/// Every public declaration of `HostProtocol` and `BackgroundServicePlugin` has a `///`
/// comment (team rule), read from the sources: the line before it, past its attributes, is a
/// doc comment. A member that implements a standard protocol requirement (`init(json:)`,
/// `json`, `name`, `==`, `hash(into:)`, `description`, the literal initializers...) takes the
/// protocol's documentation, as DocC does, and needs none of its own.
@Suite("public declarations are documented")
struct PublicDocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Protocol requirements implemented, documented by their protocols.
    static let requirements = [
        "init(json: JSONValue)", "var json: JSONValue", "static let name =", "static let kind =",
        "typealias Params =", "typealias Result =", "static func ==", "static func <", "func hash(into",
        "var description: String", "func next() -> UInt64", "init(booleanLiteral", "init(stringLiteral",
        "init(integerLiteral", "init(floatLiteral", "init(arrayLiteral", "init(dictionaryLiteral",
        "func makeIterator()", "let rawValue", "init(rawValue",
    ]

    /// The undocumented public declarations of a source file, as `line: text`.
    static func undocumented(in text: String) -> [String] {
        let lines = text.components(separatedBy: "\n")
        var found: [String] = []
        for (i, line) in lines.enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            var words = code.split(separator: " ").drop { $0.hasPrefix("@") }
            guard let first = words.popFirst(), first == "public" || first == "open" else { continue }
            if requirements.contains(where: { code.contains($0) }) { continue }
            var j = i - 1
            while j >= 0, lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("@") { j -= 1 }
            let previous = j >= 0 ? lines[j].trimmingCharacters(in: .whitespaces) : ""
            if !previous.hasPrefix("///"), !previous.hasSuffix("*/") { found.append("\(i + 1): \(code)") }
        }
        return found
    }

    @Test(arguments: ["HostProtocol", "BackgroundServicePlugin"])
    func everyPublicDeclarationHasADocComment(target: String) throws {
        let dir = Self.root.appendingPathComponent("Sources/\(target)")
        let files = try #require(FileManager.default.enumerator(atPath: dir.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20)
        for file in files.sorted() {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            for declaration in Self.undocumented(in: text) {
                Issue.record("Sources/\(target)/\(file):\(declaration) has no /// comment")
            }
        }
    }

    /// The check itself: it finds what it should, and passes what it should.
    @Test func theCheckFindsAnUndocumentedDeclaration() {
        let text = """
            /// Documented.
            public struct A {
                public var x: Int
                /// Documented.
                @inlinable public func f() {}
                public init(json: JSONValue) throws(JSONDecodingError) {}
                /// Documented,
                /// over two lines.
                @discardableResult
                public func g() -> Int { 1 }
                public static func h() {}
                var internalOne = 0
            }
            """
        #expect(Self.undocumented(in: text) == ["3: public var x: Int", "11: public static func h() {}"])
    }
}
