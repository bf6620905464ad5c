import Foundation
import HostProtocol
import HostTestSupport
import Testing

@testable import PluginHost

/// docs/embedding.md's example compiles (it is EmbeddingExample.swift), matches
/// the doc, and works against the real plugin.
@Suite("Embedding example")
struct EmbeddingExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func between(_ text: String, _ begin: String, _ end: String) -> String? {
        guard let a = text.range(of: begin), let b = text.range(of: end, range: a.upperBound..<text.endIndex) else {
            return nil
        }
        return String(text[a.upperBound..<b.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func docShowsTheCompiledExample() throws {
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/PluginHostTests/EmbeddingExample.swift"),
            encoding: .utf8)
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/embedding.md"), encoding: .utf8)
        let code = try #require(Self.between(source, "// BEGIN EXAMPLE", "// END EXAMPLE"))
        let shown = try #require(Self.between(doc, "```swift\n", "\n```"), "docs/embedding.md has no swift block")
        #expect(shown == code, "docs/embedding.md's example differs from Tests/PluginHostTests/EmbeddingExample.swift")
    }

    /// The manifest the page shows resolves against this repository under the identity it
    /// uses (a checkout named `background-service-bridge`): package and product names are
    /// checked by SwiftPM itself, as a user's `swift build` would check them.
    @Test func docsManifestResolves() async throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/embedding.md"), encoding: .utf8)
        let manifest = try #require(
            Self.between(doc, "```\n// swift-tools-version", "\n```").map { "// swift-tools-version" + $0 + "\n" },
            "docs/embedding.md shows no manifest")
        #expect(manifest.contains(#"package: "background-service-bridge""#))
        #expect(!manifest.contains(#"package: "BackgroundServiceBridge""#))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("embedding-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let host = dir.appendingPathComponent("MyHost")
        try FileManager.default.createDirectory(
            at: host.appendingPathComponent("Sources/MyHost"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: dir.appendingPathComponent("background-service-bridge"), withDestinationURL: Self.root)
        try manifest.write(to: host.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import PluginHost\n".write(
            to: host.appendingPathComponent("Sources/MyHost/main.swift"), atomically: true, encoding: .utf8)
        let result = try await onThread {
            try Self.swiftPackage(["show-dependencies"], in: host)
        }
        #expect(result.status == 0, "swift package show-dependencies: \(result.output)")
        #expect(result.output.contains("background-service-bridge"))
    }

    /// Runs `swift package ARGS` (the toolchain on `PATH`) in `directory`; status and output.
    static func swiftPackage(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments =
            ["swift", "package", "--scratch-path", directory.appendingPathComponent(".build").path]
            + arguments
        p.currentDirectoryURL = directory
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func exampleRunsAgainstThePlugin() async throws {
        let logged = Box<[String]>([])
        let state = try await runUploadOnce(
            pluginPath: Binaries.plugin, log: { line in logged.update { $0.append(line) } })
        #expect(logged.get == ["upload run 1: connecting"], "the service's log goes where the host says")
        #expect(state.counters.launched == 1)
        #expect(state.counters.completed == 1, "the run's completion callback completes the launched task")
        #expect(state.activeTask == nil)
        #expect(state.pendingRequests.isEmpty, "strict releases the keepalive when the run ends on its own")
        #expect(state.clock == .real)
    }
}
