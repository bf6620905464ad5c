import Foundation
import HostProtocol
import HostTestSupport
import Testing

@testable import PluginHost

/// docs/embedding.md's example compiles (it is EmbeddingExample.swift), matches
/// the doc, and works against the real plugin.
@Suite("Embedding example")
struct EmbeddingExampleTests {
    static let root = PackageRoot.url

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
        let shown = try #require(Self.swiftFiles(doc)["Sources/MyHost/Upload.swift"], "no Upload.swift block")
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

    /// The page's Swift blocks that begin with a `// Sources/...swift` line: path → code
    /// (without that line).
    static func swiftFiles(_ doc: String) -> [String: String] {
        var files: [String: String] = [:]
        for block in doc.components(separatedBy: "```swift\n").dropFirst() {
            guard let end = block.range(of: "\n```") else { continue }
            let code = block[..<end.lowerBound]
            guard let newline = code.firstIndex(of: "\n"), code.hasPrefix("// Sources/") else { continue }
            let path = String(code[code.index(code.startIndex, offsetBy: 3)..<newline])
            files[path] = String(code[code.index(after: newline)...]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return files
    }

    /// Runs `swift package ARGS` (the toolchain on `PATH`) in `directory`; status and output.
    static func swiftPackage(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        try swift(
            ["package", "--scratch-path", directory.appendingPathComponent(".build").path] + arguments, in: directory)
    }

    /// Runs `swift ARGS` (the toolchain on `PATH`) in `directory`; status and output. A
    /// run past `limit` is killed (and fails).
    static func swift(_ arguments: [String], in directory: URL, limit: Duration = .seconds(1200)) throws
        -> (status: Int32, output: String)
    {
        try run("/usr/bin/env", ["swift"] + arguments, in: directory, limit: limit)
    }

    /// Runs a program in `directory`; status and output (stdout and stderr together).
    static func run(_ path: String, _ arguments: [String], in directory: URL, limit: Duration) throws
        -> (status: Int32, output: String)
    {
        // In `directory`, stderr with stdout; killed at the limit (hang-catching only).
        let quoted = ([path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let dir = "'" + directory.path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let run = ProgramRun.run(
            "/bin/sh", ["-c", "cd \(dir) && exec \(quoted.joined(separator: " ")) 2>&1"],
            environment: ProcessInfo.processInfo.environment, hangLimit: limit)
        return (run.status, run.stdout.text)
    }

    /// The page's steps, followed in a fresh folder: a checkout named
    /// `background-service-bridge` (a link to this repository), the manifest and the two
    /// Swift files of the page in `MyHost`, `swift build`, then the program run with the
    /// plugin binary's path. A fresh build of `PluginHost` takes a minute or two.
    @Test(.timeLimit(.minutes(30)))
    func docsStepsBuildAndRunTheExample() async throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/embedding.md"), encoding: .utf8)
        let manifest = try #require(
            Self.between(doc, "```\n// swift-tools-version", "\n```").map { "// swift-tools-version" + $0 + "\n" })
        let files = Self.swiftFiles(doc)
        #expect(Set(files.keys) == ["Sources/MyHost/Upload.swift", "Sources/MyHost/main.swift"])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("embedding-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let host = dir.appendingPathComponent("MyHost")
        try FileManager.default.createDirectory(
            at: host.appendingPathComponent("Sources/MyHost"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: dir.appendingPathComponent("background-service-bridge"), withDestinationURL: Self.root)
        try manifest.write(to: host.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        for (path, code) in files {
            try (code + "\n").write(to: host.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        let scratch = host.appendingPathComponent(".build")
        let build = try await onThread { try Self.swift(["build", "--scratch-path", scratch.path], in: host) }
        try #require(build.status == 0, "swift build: \(build.output.suffix(3000))")
        let binary = scratch.appendingPathComponent("debug/MyHost").path
        let run = try await onThread { try Self.run(binary, [Binaries.plugin], in: host, limit: .seconds(120)) }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("upload: upload run 1: connecting"), "\(run.output)")
        #expect(run.output.contains("launched 1, completed 1, active task none, pending requests 0"), "\(run.output)")
        let usage = try await onThread { try Self.run(binary, [], in: host, limit: .seconds(60)) }
        #expect(usage.status == 64 && usage.output.contains("usage: MyHost"))
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
