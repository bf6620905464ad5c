import Foundation
import HostProtocol
import HostTestSupport
import Testing

@testable import PluginHost

/// docs/embedding.md's example compiles (it is EmbeddingExample.swift), matches
/// the doc, and works against the real plugin.
@Suite("Embedding example")
struct EmbeddingExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func between(_ text: String, _ begin: String, _ end: String) -> String? {
        guard let a = text.range(of: begin), let b = text.range(of: end, range: a.upperBound..<text.endIndex) else { return nil }
        return String(text[a.upperBound..<b.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func docShowsTheCompiledExample() throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent("Tests/PluginHostTests/EmbeddingExample.swift"), encoding: .utf8)
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/embedding.md"), encoding: .utf8)
        let code = try #require(Self.between(source, "// BEGIN EXAMPLE", "// END EXAMPLE"))
        let shown = try #require(Self.between(doc, "```swift\n", "\n```"), "docs/embedding.md has no swift block")
        #expect(shown == code, "docs/embedding.md's example differs from Tests/PluginHostTests/EmbeddingExample.swift")
    }

    @Test func exampleRunsAgainstThePlugin() async throws {
        let state = try await runUploadOnce(pluginPath: Binaries.plugin)
        #expect(state.counters.launched == 1)
        #expect(state.counters.completed == 1, "the run's completion callback completes the launched task")
        #expect(state.activeTask == nil)
        #expect(state.pendingRequests.isEmpty, "strict releases the keepalive when the run ends on its own")
        #expect(state.clock == .real)
    }
}
