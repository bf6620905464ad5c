import Foundation
import HostProtocol
import HostSimulation
import PluginFuzzing
import PluginHost
import RustSide

/// `plugin-host replay FILE`: re-runs a trace and reports whether the plugin
/// behaves identically.
enum ReplayCommand {
    static let usage = """
        usage: plugin-host replay FILE [--plugin PATH] [--timeout S] [-- plugin-args...]

        Re-runs a trace written by plugin-host fuzz against the plugin (with the plugin
        arguments recorded in the trace, plus any given after --) and compares every
        reply with the replies the trace recorded. Prints "identical" or the first
        difference (what the trace recorded there and what the plugin wrote now), and
        whether the replies agree with the reference model now (plugin level) or the
        finding's invariant is still broken (system level). A plugin that cannot start, or
        that hangs, ends, floods the host or writes junk, is reported as such (exit 2 or 3).

        options:
          --plugin PATH|builtin
                          plugin binary (default: background-service-plugin beside plugin-host);
                          builtin: the plugin's engine in this process
          --timeout S     how long the trace's replies (plugin level, default 30) or one call's
                          answer (system level, default 10) may take before the plugin counts as hung
          --help          this text

        exit status: 0 identical, 1 different, 2 the plugin did not start (its stderr shown),
        3 the plugin failed during the replay (hung, ended, flooded the host, wrote junk or wrote
        outside a step; its stderr shown), 64 usage error (a trace that cannot be read or played
        included: its line and why)
        """

    static func run(_ arguments: [String]) -> Int32 {
        let args: Arguments
        var timeout: Double?
        do throws(Arguments.UsageError) {
            args = try Arguments(arguments, options: ["--plugin", "--timeout"], flags: ["--help"])
            if args.has("--help") {
                print(usage)
                return ExitCode.ok
            }
            guard args.positional.count == 1 else { throw Arguments.UsageError("give exactly one trace file") }
            if args.value("--timeout") != nil { timeout = try args.double("--timeout", default: 30, range: 0.1...3600) }
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        let trace: TraceFile
        let dispatch: DispatchMode
        do {
            trace = try TraceFile.read(path: args.positional[0])
            dispatch = try trace.dispatch()
            // Every line checked before the plugin starts.
            if trace.header.level == "plugin" { _ = try trace.pluginSteps() } else { _ = try trace.systemCase() }
        } catch {
            return HostCLI.usageError("\(error)", usage: usage)
        }
        let plugin = PluginLocator.resolve(args.value("--plugin"))
        guard PluginLocator.isAvailable(plugin) else {
            return HostCLI.pluginMissing("replay", path: plugin, explicit: args.value("--plugin") != nil, usage: usage)
        }
        if let checked = HostCLI.stopAfterCheckingArguments("replay") { return checked }
        Console.out(
            "replay \(args.positional[0]): \(trace.header.level) level, profile \(trace.header.profile.rawValue), "
                + "finding: \(trace.header.finding)"
        )
        let launcher = PluginLocator.launcher(plugin, arguments: trace.header.pluginArguments + args.passthrough)
        if trace.header.level == "plugin" {
            return replayPlugin(trace, launcher: launcher, dispatch: dispatch, timeout: timeout)
        }
        return SystemReplay.run(trace, launcher: launcher, dispatch: dispatch, timeout: timeout)
    }

    static func replayPlugin(_ trace: TraceFile, launcher: PluginLauncher, dispatch: DispatchMode, timeout: Double?)
        -> Int32
    {
        let lines = (try? trace.pluginSteps()) ?? []
        let steps = lines.map(\.step)
        let driver: PluginDriver
        do {
            driver = try PluginDriver(plugin: launcher, timeout: timeout ?? PluginDriver.defaultTimeout)
        } catch {
            return FuzzCommand.report(PluginFailure(error), subcommand: "replay")
        }
        defer { driver.close() }
        let outcome = PluginCase(steps: steps, dispatch: dispatch).run(
            on: driver, profile: trace.header.profile, resetID: 1, keepFrames: true)
        if let error = outcome.error { return FuzzCommand.report(PluginFailure(error), subcommand: "replay") }
        let identical = compare(steps, recorded: lines.map(\.recorded), outcome: outcome)
        if identical {
            let frames = outcome.actual.reduce(0) { $0 + $1.count }
            Console.out(
                "identical: the plugin wrote the same replies as recorded (\(steps.count) steps, \(frames) frames)")
        }
        verdict(trace, dispatch: dispatch, outcome: outcome)
        return identical ? ExitCode.ok : ExitCode.failed
    }

    /// Prints the first step whose frames (or schedule) differ from the recording; true when none does.
    static func compare(_ steps: [FuzzStep], recorded: [[JSONValue]], outcome: PluginCase.Outcome) -> Bool {
        for (i, step) in steps.enumerated() {
            let now = i < outcome.actual.count ? outcome.actual[i] : []
            let then = recorded[i]
            if let m = FrameComparison.firstMismatch(expected: then, actual: now) {
                Console.out("different at step \(i + 1) (\(step.summary)), frame \(m.index + 1):")
                let counts = "the recording has \(count(then)) for this step, the plugin wrote \(count(now))"
                Console.out(
                    "  recorded: \(m.expected.map { TerminalText.json($0.description) } ?? "nothing more (\(counts))")")
                Console.out(
                    "  now:      \(m.actual.map { TerminalText.json($0.description) } ?? "nothing more (\(counts))")")
                return false
            }
            let taken = i < outcome.taken.count ? PluginCase.trimmed(outcome.taken[i]) : []
            if step.members != nil, taken != PluginCase.trimmed(step.schedule) {
                Console.out("different at step \(i + 1) (\(step.summary)): the plugin took another schedule:")
                Console.out("  now:      \(taken.isEmpty ? "ipc only" : taken.map(\.rawValue).joined(separator: ","))")
                return false
            }
        }
        return true
    }

    /// `"1 frame"`, `"3 frames"`.
    static func count(_ frames: [JSONValue]) -> String { FuzzProgress.count(frames.count, "frame") }

    /// Whether the trace's finding still reproduces.
    static func verdict(_ trace: TraceFile, dispatch: DispatchMode, outcome: PluginCase.Outcome) {
        if dispatch == .tauri, outcome.signatures.contains(trace.header.finding) {
            Console.out("finding: still reproduces (\(trace.header.finding))")
        } else if dispatch == .tauri {
            let other = outcome.signatures.isEmpty ? "" : " (now: \(outcome.signatures.joined(separator: "; ")))"
            Console.out("finding: no longer reproduces\(other)")
        } else if let m = outcome.mismatch {
            Console.out("model: still disagrees (\(outcome.signature ?? m.signature))")
        } else {
            Console.out("model: agrees now (the finding no longer reproduces)")
        }
    }
}
