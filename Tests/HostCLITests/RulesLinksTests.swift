import Foundation
import HostTestSupport
import Testing

/// `docs/rules.md` leads from each rule to the code that implements it and the tests that
/// check it in one hop: a cell `` `Port/BackgroundServicePlugin.swift` · `waitForCancel` ``
/// names a file and a symbol in it, a cell `` `DispatchRaceTests` · `lostWaitForCancelWitness()` ``
/// a test file and a test in it. Every such link must lead somewhere: the file exists (under
/// `Sources/BackgroundServicePlugin/`, `Sources/`, or the tests), and it names the symbol.
@Suite("rules.md links lead to code")
struct RulesLinksTests {
    static let root = PackageRoot.url

    /// Every Swift file under `folder`, relative to the package's root.
    static func swiftFiles(under folder: String) -> [String] {
        let dir = root.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
    }

    /// The file a link's path names: a source path (`Port/X.swift`, `EmulatedIOS/X.swift`) or
    /// a test file's name, with or without its folder (`Dispatch/DispatchRaceTests`).
    static func resolve(_ path: String, tests: [String]) -> String? {
        if path.hasSuffix(".swift") {
            let candidates = [
                "Sources/BackgroundServicePlugin/\(path)", "Sources/\(path)", "Sources/EmulatedIOS/\(path)",
            ]
            return candidates.first { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
        }
        return tests.first { $0.hasSuffix("/\(path).swift") }
    }

    @Test func everyLinkNamesAFileThatNamesTheSymbol() throws {
        let text = try PackageRoot.read("docs/rules.md")
        let regex = try NSRegularExpression(pattern: "`([A-Za-z0-9_/+.]+)` · `([^`]+)`")
        let tests = Self.swiftFiles(under: "Tests")
        var broken: [String] = []
        var seen = 0
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let p = Range(match.range(at: 1), in: text), let s = Range(match.range(at: 2), in: text) else {
                continue
            }
            seen += 1
            let (path, symbol) = (String(text[p]), String(text[s]))
            // `launch(identifier:)` → `launch`; `Stderr.oneLine` → `Stderr`; `deinit` → `deinit`.
            let name = String(symbol.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            guard let file = Self.resolve(path, tests: tests) else {
                broken.append("\(path) · \(symbol): no such file")
                continue
            }
            let source = try PackageRoot.read(file)
            if name.isEmpty || !source.contains(name) { broken.append("\(path) · \(symbol): \(file) does not name it") }
        }
        #expect(seen > 150, "found only \(seen) links in docs/rules.md")
        #expect(broken.isEmpty, "\(broken.count) broken links in docs/rules.md:\n\(broken.joined(separator: "\n"))")
    }
}
