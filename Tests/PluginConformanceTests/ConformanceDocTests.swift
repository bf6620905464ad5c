import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import Testing

@testable import PluginConformance

/// `docs/conformance.md` is generated from the catalogue and must not drift.
@Suite("conformance docs")
struct ConformanceDocTests {
    static let docPath = PackageRoot.path("docs/conformance.md")

    @Test func committedCatalogueMatchesTheCode() throws {
        let committed = try String(contentsOfFile: Self.docPath, encoding: .utf8)
        let generated = ConformanceCatalogueDoc.markdown()
        if committed != generated {
            let a = committed.split(separator: "\n", omittingEmptySubsequences: false)
            let b = generated.split(separator: "\n", omittingEmptySubsequences: false)
            let line = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            let regenerate = "regenerate it: plugin-host conformance --list --format markdown > docs/conformance.md"
            Issue.record("docs/conformance.md is stale from line \(line + 1); \(regenerate)")
        }
    }

    @Test func catalogueNamesEveryCheckRuleAndMutant() {
        let doc = ConformanceCatalogueDoc.markdown()
        for check in ConformanceCatalogue.all {
            #expect(doc.contains("### `\(check.name)`"))
            #expect(doc.contains(check.rule.replacingOccurrences(of: "|", with: "\\|")))
        }
        for m in ConformanceMutants.all { #expect(doc.contains("| `\(m.fault)` |")) }
        #expect(doc.contains("\(ConformanceCatalogue.all.count) checks"))
    }

    /// `--openrpc` prints the document the suite validates against, as docs/openrpc.json holds it.
    @Test func theCommandPrintsTheOpenRPCDocument() async throws {
        let r = try await ConformanceHarness.host(["conformance", "--openrpc"])
        #expect(r.status == 0)
        #expect(r.stdout == OpenRPCDocument.prettyText)
        #expect(try JSONParser.parse(Array(r.stdout.utf8)) == OpenRPCDocument.value)
    }

    @Test func theCommandPrintsTheSameMarkdown() async throws {
        let r = try await ConformanceHarness.host(["conformance", "--list", "--format", "markdown"])
        #expect(r.status == 0)
        #expect(r.stdout == ConformanceCatalogueDoc.markdown())
    }
}
