import Foundation
import HostProtocol
import PluginHost

/// `plugin-host explain`: "why has my task not run?" for a live session.
enum ExplainCommand {
    static let usage = """
        usage: plugin-host explain [options] [-- plugin-args...]

        Starts a fresh plugin with the emulated iOS acting on its own (--os ios, virtual
        clock, events on) and plays a session against it: JSON-RPC requests, one per line,
        as you would type them by hand, from --script FILE or standard input (interactive
        when it is a terminal). Each reply and event is shown as it comes; `waitForCancel`
        stays pending as in a real host. At any point a line `explain` (or `explain ID`)
        prints, for every identifier (or ID), its status, every reason it is not running
        now and when it could next run; at the end of the input the same is printed once
        more, unless the session ended with `shutdown`. Lines that are blank or start
        with `#` are skipped. Batches (JSON arrays) are not accepted: send their members
        one line each.

        Example script:
          {"jsonrpc":"2.0","id":1,"method":"startKeepalive"}
          {"jsonrpc":"2.0","id":2,"method":"os/setConditions","params":{"lowPowerMode":true}}
          {"jsonrpc":"2.0","id":3,"method":"os/advanceTime","params":{"seconds":600}}
          explain

        options:
          --plugin PATH           plugin binary (default: background-service-plugin beside plugin-host)
          --script FILE|-         the session's lines (default -: standard input)
          --profile seed|strict   plugin profile (default seed)
          --os-seed N             the emulated OS's seed (default 0)
          --json                  print each explanation as one JSON line {"now","explanations"}, nothing else
          --quiet                 do not show replies and events, only explanations
          --help                  this text

        Plugin arguments after -- are added to --os ios --clock virtual --events.
        Exit status: 0, 1 when a line could not be used or the plugin failed, 64 for usage errors.
        """

    static func run(_ arguments: [String]) -> Int32 {
        let args: Arguments
        let profile: Profile
        let seed: UInt64
        do throws(Arguments.UsageError) {
            args = try Arguments(
                arguments, options: ["--plugin", "--script", "--profile", "--os-seed"],
                flags: ["--help", "--json", "--quiet"])
            if args.has("--help") {
                print(usage)
                return 0
            }
            if let extra = args.positional.first { throw Arguments.UsageError("unexpected argument \"\(extra)\"") }
            profile = try args.choice("--profile", default: .seed)
            seed = try args.uint64("--os-seed") ?? 0
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        let input: LineSource
        switch LineSource.open(args.value("--script") ?? "-") {
        case .success(let source): input = source
        case .failure(let error): return HostCLI.usageError(error.description, usage: usage)
        }
        defer { input.close() }
        let json = args.has("--json")
        let echo = !json && !args.has("--quiet")
        let pluginPath = PluginLocator.resolve(args.value("--plugin"))
        guard FileManager.default.isExecutableFile(atPath: pluginPath) else {
            return HostCLI.pluginMissing(
                "explain", path: pluginPath, explicit: args.value("--plugin") != nil, usage: usage)
        }
        if let checked = HostCLI.stopAfterCheckingArguments("explain") { return checked }
        let plugin = PluginProcess.Options(
            executable: pluginPath,
            arguments: [
                "--profile", profile.rawValue, "--clock", "virtual", "--os", "ios", "--os-seed", String(seed),
                "--events",
            ] + args.passthrough)
        let session: ExplainSession
        do {
            session = try ExplainSession(plugin: plugin, echo: { line in if echo { print(line) } })
        } catch {
            HostCLI.diagnose("explain", "\(error)")
            return 1
        }
        defer { session.close() }
        if input.isTerminal {
            HostCLI.diagnose("explain", "type JSON-RPC requests, `explain [ID]`, or end the input (Ctrl-D)")
        }
        var failed = false
        func report(_ only: String?) -> Bool {
            do {
                let result = try session.explainAll()
                let answers = only.map { id in result.answers.filter { $0.identifier == id } } ?? result.answers
                let shown = answers.isEmpty ? [try session.explain(only!)] : answers
                print(
                    json
                        ? ExplainReport.json(now: result.now, answers: shown).description
                        : ExplainReport.text(now: result.now, answers: shown))
                return true
            } catch {
                HostCLI.diagnose("explain", "\(error)")
                return false
            }
        }
        var number = 0
        while let raw = input.next() {
            number += 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line == "explain" || line.hasPrefix("explain ") {
                let id = line.dropFirst("explain".count).trimmingCharacters(in: .whitespaces)
                if !report(id.isEmpty ? nil : id) { return 1 }
                continue
            }
            if echo { print("→ \(line)") }
            do {
                try session.send(line: line)
            } catch {
                HostCLI.diagnose("explain", "line \(number): \(error)")
                failed = true
            }
        }
        // After a clean `shutdown` there is no plugin left to ask: no final report.
        if !session.hasShutDown, !report(nil) { return 1 }
        return failed ? 1 : 0
    }
}

/// Lines from a file or standard input.
struct LineSource {
    private let handle: UnsafeMutablePointer<FILE>
    /// Whether the lines come from a terminal (interactive).
    let isTerminal: Bool
    /// Whether it opened the file itself (and closes it).
    let owned: Bool

    struct OpenError: Error, CustomStringConvertible {
        let description: String
    }

    static func open(_ path: String) -> Result<LineSource, OpenError> {
        if path == "-" { return .success(LineSource(handle: fdopen(0, "r"), isTerminal: isatty(0) != 0, owned: false)) }
        guard let file = fopen(path, "r") else {
            return .failure(OpenError(description: "--script: cannot read \(path)"))
        }
        return .success(LineSource(handle: file, isTerminal: false, owned: true))
    }

    /// Closes a file it opened (standard input is left open).
    func close() {
        if owned { fclose(handle) }
    }

    /// The next line without its newline; nil at the end.
    func next() -> String? {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        defer { free(buffer) }
        let n = getline(&buffer, &size, handle)
        guard n >= 0, let buffer else { return nil }
        var line = String(cString: buffer)
        while line.hasSuffix("\n") || line.hasSuffix("\r") { line.removeLast() }
        return line
    }
}
