import Foundation
import HostProtocol
import PluginHost

/// `plugin-host demo`: the scripted day against the plugin, as a timeline.
enum DemoCommand {
    static let usage = """
        usage: plugin-host demo [options] [-- plugin-args...]

        Runs the emulated Rust-side service manager with a sample sync service against
        the plugin, on one virtual clock, through a scripted day (with the default timings):
        a sync that finishes in time, one cut off by the safety timer, a processing task
        expired by iOS, and a stop; the notes say what happened in this run. Prints the
        timeline and a summary, and the plugin's stderr lines, if any, on stderr. Runs in
        well under a second of real time (0.04 to 0.08 s measured).

        With --os ios the emulated iOS acts on its own, and the day is another: a refresh
        task expired after a few seconds, a processing task cut off when the phone is
        unplugged, a force-quit and what it does to the schedule, and a cold start into
        the background with a fresh Rust side.

        options:
          --plugin PATH|builtin         plugin binary (default: background-service-plugin beside plugin-host);
                                        builtin: the plugin's engine in this process
          --profile seed|strict         plugin profile and host behaviour (default seed)
          --work-seconds S              how long the first sync takes (default 20)
          --overrun-seconds S           how long the later syncs would take (default 3600)
          --safety-timeout S            iosSafetyTimeoutSecs (default 28)
          --earliest-begin-minutes M    earliest begin of both requests (default 15)
          --expire-after S              when iOS expires the processing task (default 300)
          --os manual|ios               the emulated OS: told what to do (default) or acting on its own
          --os-seed N                   with --os ios: the OS's seed (default 0)
          --restart-at-launch           with --os ios: the app's code starts the service at every launch
          --json                        print the timeline as JSON instead of text
          --mermaid FILE                also write the run as a Mermaid sequence diagram
          --help                        this text
        """

    static func run(_ arguments: [String]) -> Int32 {
        let args: Arguments
        var settings = DemoScenario.Settings()
        var ios: (scenario: IOSDemoScenario, seed: UInt64)?
        do throws(Arguments.UsageError) {
            args = try Arguments(
                arguments,
                options: [
                    "--plugin", "--profile", "--work-seconds", "--overrun-seconds", "--safety-timeout",
                    "--earliest-begin-minutes", "--expire-after", "--mermaid", "--os", "--os-seed",
                ],
                flags: ["--help", "--json", "--restart-at-launch"])
            if args.has("--help") {
                print(usage)
                return 0
            }
            guard args.positional.isEmpty else {
                throw Arguments.UsageError("unexpected argument \"\(args.positional[0])\"")
            }
            settings.profile = try args.choice("--profile", default: .seed)
            settings.workSeconds = try args.double("--work-seconds", default: 20, range: 0...86_400)
            settings.overrunSeconds = try args.double("--overrun-seconds", default: 3600, range: 0...86_400)
            settings.safetyTimeoutSeconds = try args.double("--safety-timeout", default: 28, range: 0...86_400)
            settings.earliestBeginMinutes = try args.double("--earliest-begin-minutes", default: 15, range: 0...1440)
            settings.processingExpiresAfterSeconds = try args.double("--expire-after", default: 300, range: 0...86_400)
            ios = try DemoCommand.iosDay(args, safetyTimeout: settings.safetyTimeoutSeconds)
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        let pluginPath = PluginLocator.resolve(args.value("--plugin"))
        guard PluginLocator.isAvailable(pluginPath) else {
            let explicit = args.value("--plugin") != nil
            return HostCLI.pluginMissing("demo", path: pluginPath, explicit: explicit, usage: usage)
        }
        if let path = args.value("--mermaid"), let problem = unwritable(path) {
            return HostCLI.usageError("--mermaid: cannot write \(path): \(problem)", usage: usage)
        }
        if let checked = HostCLI.stopAfterCheckingArguments("demo") { return checked }
        let scenario = DemoScenario(settings: settings)
        let osArguments = ios.map { ["--os", "ios", "--os-seed", String($0.seed)] } ?? []
        let plugin = PluginLocator.launcher(
            pluginPath,
            arguments: ["--profile", settings.profile.rawValue, "--clock", "virtual"] + osArguments + args.passthrough)
        let sim: SystemSimulation
        do {
            sim = try SystemSimulation(
                options: .init(
                    plugin: plugin, behaviour: settings.profile == .strict ? .strict : .seed,
                    serviceFactory: ios == nil ? scenario.makeFactory() : IOSDemoScenario.factory,
                    appStartsServiceAtLaunch: ios?.scenario.restartAtLaunch == true ? ios?.scenario.config : nil))
        } catch {
            HostCLI.diagnose("demo", "\(error)")
            return 1
        }
        let pid = sim.client.connection.pluginProcess.map { "pid \($0.pid)" } ?? "in this process"
        var failure: String?
        do {
            if let ios { try ios.scenario.play(on: sim) } else { try scenario.play(on: sim) }
        } catch {
            failure = error.description
        }
        let finalState = try? sim.pluginState()
        let status = sim.close()
        // The plugin's stderr lines go to the demo's stderr, not into the timeline: they come
        // on their own pipe, so their place among the replies is not deterministic.
        var entries = sim.timeline
        for case .stderr(let line) in entries.map(\.kind) { HostCLI.diagnose(line) }
        entries.removeAll { if case .stderr = $0.kind { true } else { false } }

        if args.has("--json") {
            var o: [String: JSONValue] = [
                "profile": .string(settings.profile.rawValue),
                "plugin": .string(pluginPath),
                "timeline": TimelineRenderer.json(entries),
                "pluginExit": .string(status.description),
            ]
            if let finalState { o["finalState"] = finalState.json }
            if let ios {
                o["os"] = "ios"
                o["osSeed"] = .number(JSONNumber(literal: String(ios.seed))!)
            }
            if let failure { o["error"] = .string(failure) }
            print(JSONValue.object(o).description)
        } else {
            let os = ios.map { ", --os ios (seed \($0.seed))" } ?? ""
            let profile = settings.profile.rawValue
            print("plugin-host demo: profile \(profile)\(os), plugin \(pluginPath) (\(pid)), virtual time\n")
            print(TimelineRenderer.text(entries))
            print("")
            print(DemoSummary.text(entries: entries, finalState: finalState, pluginExit: status))
            if ios != nil { print(DemoSummary.iosText(sim: sim, finalState: finalState)) }
        }
        if let path = args.value("--mermaid") {
            let title = "plugin-host demo (\(settings.profile.rawValue)\(ios == nil ? "" : ", --os ios"))"
            let diagram = TimelineRenderer.mermaid(entries, title: title)
            do {
                try diagram.write(toFile: path, atomically: true, encoding: .utf8)
                HostCLI.diagnose("demo", "wrote the sequence diagram to \(path)")
            } catch {
                HostCLI.diagnose("demo", "cannot write \(path): \(error.localizedDescription)")
                return 1
            }
        }
        if let failure {
            HostCLI.diagnose("demo", "the run stopped early: \(failure)")
            return 1
        }
        return 0
    }
}

extension DemoCommand {
    /// Why a file cannot be written at `path` (its directory missing or not writable,
    /// or the file not writable), checked before the run; nil when it can.
    static func unwritable(_ path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "no directory \(directory)"
        }
        if FileManager.default.fileExists(atPath: path) {
            return FileManager.default.isWritableFile(atPath: path) ? nil : "the file is not writable"
        }
        return FileManager.default.isWritableFile(atPath: directory) ? nil : "the directory is not writable"
    }
}

/// The demo's closing summary.
enum DemoSummary {
    static func text(entries: [TimelineEntry], finalState: PluginStateSnapshot?, pluginExit: ExitStatus) -> String {
        var starts = 0
        var stops = 0
        var rejections: [String: Int] = [:]
        var resolved = 0
        var completions: [String] = []
        for e in entries {
            switch e.kind {
            case .service(.startRequested): starts += 1
            case .service(.stopRequested): stops += 1
            case .event(let n) where n.method == TaskCompletedEvent.name:
                if let p = try? TaskEventParams(json: n.params ?? .null) {
                    completions.append(
                        "\(p.identifier.split(separator: ".").last ?? "") \(p.success == true ? "success" : "failure") "
                            + "at \(TimelineRenderer.clock(p.at))"
                    )
                }
            case .response(let r, .rust):
                if let reason = r.error?.rejectReason { rejections[reason.rawValue, default: 0] += 1 }
            case .request(let r, .rust) where r.method == WaitForCancel.name: break
            default: break
            }
            if case .service(.listenerFinished(_, "resolved")) = e.kind { resolved += 1 }
        }
        var lines = ["summary:"]
        lines.append("  service starts: \(starts), stops requested: \(stops)")
        lines.append(
            "  background tasks completed: \(completions.isEmpty ? "none" : completions.joined(separator: "; "))")
        lines.append(
            "  cancel listeners resolved (stop the service): \(resolved); rejected: "
                + "\(rejections.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
        )
        if let s = finalState {
            lines.append(
                "  plugin counters: launched \(s.counters.launched), completed \(s.counters.completed), expired "
                    + "\(s.counters.expired), violations \(s.counters.violations), dropped invokes "
                    + "\(s.counters.dropped ?? 0)"
            )
            lines.append(
                "  pending requests at the end: "
                    + (s.pendingRequests.isEmpty ? "none" : s.pendingRequests.map(\.identifier).joined(separator: ", "))
            )
        }
        lines.append("  plugin \(pluginExit)")
        return lines.joined(separator: "\n")
    }
}
