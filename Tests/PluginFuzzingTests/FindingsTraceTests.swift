import Foundation
import HostTestSupport
import Testing

/// Every trace committed in `docs/findings/` replays identically through
/// `plugin-host replay` (whatever the build, debug here, release in the docs' runs),
/// and its finding still reproduces: what `docs/findings.md` promises of each.
///
/// Black-box: the built `plugin-host` and plugin, one process pair per trace. Under the
/// virtual clock a replay is a pure function of the trace, so no timing is assumed
/// beyond the simulation's own hang timeout (10 s per request) and the time limit below.
@Suite("Committed findings traces")
struct FindingsTraceTests {
    static let directory = PackageRoot.url("docs/findings")

    /// The traces' file names, sorted (every `.jsonl` in the directory).
    static let traces: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted()
    }()

    /// The finding a trace's header names.
    static func finding(of name: String) throws -> String {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        let header = try #require(text.split(separator: "\n").first)
        let json = try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any]
        return try #require(json?["finding"] as? String, "\(name) has no finding in its header")
    }

    @Test func everyTraceIsCommittedAndNamedInTheFindings() throws {
        let findings = Self.directory.deletingLastPathComponent().appendingPathComponent("findings.md")
        let doc = try String(contentsOf: findings, encoding: .utf8)
        #expect(Self.traces.count >= 10, "the traces went missing: \(Self.traces)")
        for name in Self.traces {
            #expect(doc.contains("`\(name)`"), "docs/findings.md does not present \(name)")
        }
    }

    @Test(.timeLimit(.minutes(10)), arguments: traces)
    func replaysIdenticallyAndStillReproduces(_ name: String) async throws {
        let path = Self.directory.appendingPathComponent(name).path
        let finding = try Self.finding(of: name)
        let r = try await runHost(["replay", path, "--plugin", Binaries.plugin])
        #expect(r.status == 0, "replay \(name) exited \(r.status):\n\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("\nidentical: the same timeline, step by step"), "\(r.stdout)")
        #expect(r.stdout.contains("invariants: still broken after step "), "\(r.stdout)")
        #expect(r.stdout.contains(": \(finding)\n"), "\(name) no longer shows \(finding):\n\(r.stdout)")
        #expect(r.stderr.isEmpty, "replay wrote diagnostics: \(r.stderr)")
    }
}
