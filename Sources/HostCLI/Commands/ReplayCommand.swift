import Foundation
import HostProtocol
import PluginFuzzing
import PluginHost

/// `plugin-host replay FILE`: re-runs a trace and reports whether the plugin
/// behaves identically.
enum ReplayCommand {
    static let usage = """
        usage: plugin-host replay FILE [--plugin PATH] [-- plugin-args...]

        Re-runs a trace written by plugin-host fuzz against the plugin (with the plugin
        arguments recorded in the trace, plus any given after --) and compares every
        reply with the replies the trace recorded. Prints "identical" or the first
        difference, and whether the replies agree with the reference model now.

        options:
          --plugin PATH|builtin
                          plugin binary (default: background-service-plugin beside plugin-host);
                          builtin: the plugin's engine in this process
          --help          this text

        exit status: 0 identical, 1 different, 64 usage error (a trace that cannot be read included)
        """

    static func run(_ arguments: [String]) -> Int32 {
        let args: Arguments
        do throws(Arguments.UsageError) {
            args = try Arguments(arguments, options: ["--plugin"], flags: ["--help"])
            if args.has("--help") {
                print(usage)
                return 0
            }
            guard args.positional.count == 1 else { throw Arguments.UsageError("give exactly one trace file") }
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        let trace: TraceFile
        do {
            trace = try TraceFile.read(path: args.positional[0])
        } catch {
            return HostCLI.usageError("\(error)", usage: usage)
        }
        let plugin = PluginLocator.resolve(args.value("--plugin"))
        guard PluginLocator.isAvailable(plugin) else {
            return HostCLI.pluginMissing("replay", path: plugin, explicit: args.value("--plugin") != nil, usage: usage)
        }
        if let checked = HostCLI.stopAfterCheckingArguments("replay") { return checked }
        print(
            "replay \(args.positional[0]): \(trace.header.level) level, profile \(trace.header.profile.rawValue), "
                + "finding: \(trace.header.finding)"
        )
        switch trace.header.level {
        case "plugin": return replayPlugin(trace, plugin: plugin, extra: args.passthrough)
        case "system": return SystemReplay.run(trace, plugin: plugin, extra: args.passthrough)
        default:
            return HostCLI.usageError("unknown trace level \"\(trace.header.level)\"", usage: usage)
        }
    }

    static func replayPlugin(_ trace: TraceFile, plugin: String, extra: [String]) -> Int32 {
        let steps = trace.lines.compactMap { line in
            line["send"].flatMap { FuzzStep(json: $0, schedule: line["schedule"]) }
        }
        let dispatch = trace.header.extra["dispatch"]?.stringValue.flatMap(DispatchMode.init(rawValue:)) ?? .serial
        let recorded = trace.lines.map { $0["actual"]?.arrayValue ?? [] }
        let driver: PluginDriver
        do {
            let arguments = trace.header.pluginArguments + extra
            driver = try PluginDriver(plugin: PluginLocator.launcher(plugin, arguments: arguments))
        } catch {
            HostCLI.diagnose("replay", "\(error)")
            return 1
        }
        defer { driver.close() }
        let outcome = PluginCase(steps: steps, dispatch: dispatch).run(
            on: driver, profile: trace.header.profile, resetID: 1)
        if let error = outcome.error {
            print("different: the plugin failed: \(error)")
            return 1
        }
        var identical = true
        for (i, step) in steps.enumerated() {
            let now = i < outcome.actual.count ? outcome.actual[i] : []
            let then = i < recorded.count ? recorded[i] : []
            if let m = FrameComparison.firstMismatch(expected: then, actual: now) {
                identical = false
                print("different at step \(i + 1) (\(step.summary)):")
                print("  recorded: \(m.expected?.description ?? "nothing")")
                print("  now:      \(m.actual?.description ?? "nothing")")
                break
            }
            if step.members != nil, i < outcome.taken.count, outcome.taken[i] != step.schedule {
                identical = false
                print("different at step \(i + 1) (\(step.summary)): the plugin took another schedule:")
                print("  now:      \(outcome.taken[i].map(\.rawValue).joined(separator: ","))")
                break
            }
        }
        if identical { print("identical: the plugin wrote the same replies as recorded (\(steps.count) steps)") }
        if dispatch == .tauri, outcome.signatures.contains(trace.header.finding) {
            print("finding: still reproduces (\(trace.header.finding))")
        } else if dispatch == .tauri {
            let other = outcome.signatures.isEmpty ? "" : " (now: \(outcome.signatures.joined(separator: "; ")))"
            print("finding: no longer reproduces\(other)")
        } else if let m = outcome.mismatch {
            print("model: still disagrees (\(outcome.signature ?? m.signature))")
        } else {
            print("model: agrees now (the finding no longer reproduces)")
        }
        return identical ? 0 : 1
    }
}

/// Replays system-level traces: the same scenario and actions in a fresh
/// simulation; identical when every step's timeline matches the recording.
enum SystemReplay {
    static func run(_ trace: TraceFile, plugin: String, extra: [String]) -> Int32 {
        guard let scenario = trace.header.extra["scenario"].flatMap(SystemScenario.init(json:)) else {
            return HostCLI.usageError("the trace has no readable scenario", usage: ReplayCommand.usage)
        }
        let actions = trace.lines.compactMap { $0["action"].flatMap(SystemAction.init(json:)) }
        let recorded = trace.lines.map { $0["timeline"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        let c = SystemCase(scenario: scenario, actions: actions)
        let behaviour: HostBehaviour = trace.header.profile == .strict ? .strict : .seed
        let launcher = PluginLocator.launcher(plugin, arguments: trace.header.pluginArguments + extra)
        let dispatch = trace.header.extra["dispatch"]?.stringValue.flatMap(DispatchMode.init(rawValue:)) ?? .serial
        let outcome = c.run(plugin: launcher, behaviour: behaviour, stopAt: trace.header.finding, dispatch: dispatch)
        if let error = outcome.error { print("run failed: \(error)") }
        var identical = outcome.timeline.count == recorded.count
        for i in 0..<max(outcome.timeline.count, recorded.count) {
            let now = i < outcome.timeline.count ? outcome.timeline[i] : []
            let then = i < recorded.count ? recorded[i] : []
            guard now != then else { continue }
            identical = false
            let j = Array(zip(now, then)).firstIndex { $0 != $1 } ?? min(now.count, then.count)
            print("different at step \(i + 1) (\(i < actions.count ? actions[i].summary : "?")), line \(j + 1):")
            print("  recorded: \(j < then.count ? then[j] : "nothing")")
            print("  now:      \(j < now.count ? now[j] : "nothing")")
            break
        }
        if identical { print("identical: the same timeline, step by step (\(actions.count) steps)") }
        if let v = outcome.first(trace.header.finding) {
            print("invariants: still broken after step \(v.step + 1): \(v.violation.signature)")
        } else {
            print(
                "invariants: the finding no longer reproduces ("
                    + (outcome.signatures.isEmpty
                        ? "every invariant holds" : "other violations: " + outcome.signatures.joined(separator: "; "))
                    + ")"
            )
        }
        return identical ? 0 : 1
    }
}
