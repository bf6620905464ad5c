import Foundation
import HostTestSupport
import Testing

/// Every command shown in `README.md` and `docs/*.md` runs, so that the docs cannot drift
/// from the code silently (issue 15).
///
/// Each command runs in `/bin/sh` from the repository's root, as written, with `swift run`,
/// `plugin-host` and `background-service-plugin` bound to the binaries this test suite
/// built (the committed shims in `DocsShim/` first on `PATH`; `swift run [-c release] NAME
/// ARGS` runs `NAME ARGS`):
/// - a transcript (a `$ ` command followed by what it prints, with `▶` lines typed in) is
///   run for real and must print what the docs show, in order (`...` or `…` skips lines);
/// - any other command runs with `PLUGIN_HOST_CHECK_ARGS` set: `plugin-host` parses the
///   whole command line and checks its inputs (the plugin, the files it would read), then
///   stops; the plugin runs with an empty input; `scripts/NAME.sh ARGS` runs as
///   `scripts/NAME.sh --help` (they build and run libFuzzer or the whole suite);
/// - `swift test` and `swift build ...` are the toolchain's own commands: not run here (the
///   suite is itself `swift test`); the test lists them;
/// - a command marked `illustrative` (in its trailing comment, or `<!-- illustrative -->`
///   before its block) is not run: the test lists it too.
@Suite("Commands shown in the docs")
struct DocsCommandsTests {
    static let root = PackageRoot.url

    static var commands: [DocsCommand] {
        let docs =
            (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        let files = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return files.flatMap { file in
            let text = (try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)) ?? ""
            return DocsCommandFinder.commands(in: text, file: file)
        }
    }

    @Test func theDocsShowCommands() {
        let all = Self.commands
        // A guard against a finder that silently finds nothing.
        #expect(all.count >= 30, "only \(all.count) commands found")
        #expect(all.contains { $0.line == "swift run plugin-host demo" && $0.place.hasPrefix("README.md") })
        #expect(all.contains { $0.isTranscript && $0.line == "swift run background-service-plugin" })
    }

    @Test(arguments: commands.filter { !$0.illustrative && !isToolchain($0) })
    func runs(_ command: DocsCommand) async throws {
        let (script, checkOnly) = Self.script(for: command)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = Self.shimDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["DOCS_SHIM_BINARIES"] = Binaries.directory.path
        if checkOnly { environment["PLUGIN_HOST_CHECK_ARGS"] = "1" }
        let stdin = command.input.map { $0 + "\n" }.joined()
        let env = environment
        let result = try await onThread { try Self.shell(script, stdin: stdin, environment: env) }
        #expect(result.status == 0, "\(command) exited \(result.status):\n\(result.stderr.suffix(2000))")
        guard command.isTranscript else { return }
        let printed = result.stdout.components(separatedBy: "\n")
        let shown = command.output.joined(separator: "\n")
        #expect(
            Self.shows(command.output, in: printed),
            "\(command) printed:\n\(result.stdout.prefix(4000))\nthe docs show:\n\(shown)"
        )
    }

    static func isToolchain(_ c: DocsCommand) -> Bool {
        c.line == "swift test" || c.line.hasPrefix("swift build ") || c.line.hasPrefix("swift test ")
    }

    /// The shell text to run, and whether `plugin-host` only checks its arguments.
    static func script(for c: DocsCommand) -> (String, Bool) {
        let words = c.line.split(separator: " ")
        if let first = words.first, first.hasPrefix("scripts/"), first.hasSuffix(".sh") {
            return ("\(first) --help >/dev/null", false)
        }
        // A plugin started with nothing to read exits at once (EOF).
        let quiet = c.isTranscript || c.line.contains("|") ? c.line : c.line + " </dev/null"
        return (quiet, !c.isTranscript)
    }

    /// Whether `shown` appears in `printed`, in order: every shown line exactly, `...`/`…`
    /// standing for any number of lines; without one, nothing else may be printed.
    static func shows(_ shown: [String], in printed: [String]) -> Bool {
        let printed = printed.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let isGap: (String) -> Bool = { ["...", "…"].contains($0.trimmingCharacters(in: .whitespaces)) }
        guard shown.contains(where: isGap) else { return shown == printed }
        var at = printed.startIndex
        var gap = false
        for line in shown {
            if isGap(line) {
                gap = true
                continue
            }
            if gap {
                guard let found = printed[at...].firstIndex(of: line) else { return false }
                at = found + 1
            } else {
                guard at < printed.endIndex, printed[at] == line else { return false }
                at += 1
            }
            gap = false
        }
        return gap || at == printed.endIndex
    }

    /// The committed shims for `PATH` (`DocsShim/`: `swift`, `plugin-host`,
    /// `background-service-plugin`), which run the binaries in `DOCS_SHIM_BINARIES`.
    /// Committed rather than written here: a file this process writes can be inherited
    /// open by a process another test starts meanwhile, and exec'ing it then fails with
    /// ETXTBSY, after which `/bin/sh` runs the next `swift` on `PATH` (the real one).
    static let shimDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("DocsShim").path

    static func shell(_ script: String, stdin: String, environment: [String: String]) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        // In the package's root, as a reader runs the docs' commands.
        let quotedRoot = "'" + root.path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let run = ProgramRun.run(
            "/bin/sh", ["-c", "cd \(quotedRoot) && \(script)"], environment: environment, input: Array(stdin.utf8))
        return (run.status, run.stdout.text, run.stderr.text)
    }
}
