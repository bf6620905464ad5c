import Foundation
import HostTestSupport
import Testing

/// The docs as a whole: pages that quote the same figure quote the same value, every
/// relative link leads to a file, and the README's reading order reaches every page.
/// Run logs (`docs/runs/`) keep the figures of their day and are not compared.
@Suite("The docs agree with each other")
struct DocsConsistencyTests {
    static let root = PackageRoot.url

    static func read(_ relative: String) throws -> String { try PackageRoot.read(relative) }

    /// `README.md` and `docs/*.md` (reference pages), or `docs/runs/*.md` (logs).
    static func pages(runs: Bool = false) -> [String] {
        let dir = runs ? "docs/runs" : "docs"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(dir).path)) ?? []
        let docs = names.filter { $0.hasSuffix(".md") }.sorted().map { "\(dir)/\($0)" }
        return runs ? docs : ["README.md"] + docs
    }

    /// Every number written before `noun` in `text` ("130 checks", "29 mutants").
    static func figures(before noun: String, in text: String) -> [Int] {
        guard let regex = try? NSRegularExpression(pattern: "\\b([0-9][0-9,]*) (?:conformance )?\(noun)\\b") else {
            return []
        }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).flatMap { Int(text[$0].replacingOccurrences(of: ",", with: "")) }
        }
    }

    /// `docs/conformance.md` is generated from the catalogue (`ConformanceDocTests` keeps
    /// it so): its counts of checks and mutants are the truth the other pages must quote.
    @Test(arguments: ["checks", "mutants"])
    func countsQuotedAnywhereMatchTheGeneratedCatalogue(noun: String) throws {
        let truth = try #require(Set(Self.figures(before: noun, in: try Self.read("docs/conformance.md"))).first)
        var quoted: [String] = []
        for page in Self.pages() {
            for figure in Self.figures(before: noun, in: try Self.read(page)) where figure != truth {
                quoted.append("\(page): \(figure) \(noun)")
            }
        }
        #expect(quoted.isEmpty, "docs/conformance.md has \(truth) \(noun); other pages say: \(quoted)")
    }

    /// Relative Markdown links (`](path)`, `](path#anchor)`) of every page, logs included.
    @Test func everyRelativeLinkLeadsToAFile() throws {
        let regex = try NSRegularExpression(pattern: "\\]\\(([^)#:\\s]+)(#[^)]*)?\\)")
        var broken: [String] = []
        var seen = 0
        for page in Self.pages() + Self.pages(runs: true) {
            let text = try Self.read(page)
            let base = (page as NSString).deletingLastPathComponent
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let r = Range(match.range(at: 1), in: text) else { continue }
                seen += 1
                let target = base.isEmpty ? String(text[r]) : "\(base)/\(text[r])"
                if !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(target).path) {
                    broken.append("\(page): \(text[r])")
                }
            }
        }
        #expect(seen > 20, "found only \(seen) links")
        #expect(broken.isEmpty, "broken links: \(broken)")
    }

    /// The README's reading order names every reference page and the run logs' index.
    @Test func theReadingOrderReachesEveryPage() throws {
        let readme = try Self.read("README.md")
        let order = try #require(readme.range(of: "## Reading order"), "README.md has no reading order")
        let rest = readme[order.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        let expected = Self.pages().dropFirst() + ["docs/runs/README.md", "docs/openrpc.json"]
        let missing = expected.filter { !section.contains("(\($0))") }
        #expect(missing.isEmpty, "the reading order does not link \(missing)")
    }
}
