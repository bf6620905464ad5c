import Foundation
import HostProtocol
import PluginFuzzing
import PluginHost

/// `plugin-host bench --findings`: the fuzzer's finding power (issue 25). For each
/// configuration (`--os manual` and `--os ios`, `--dispatch serial` and `tauri`, the seed
/// plugin and the seed Rust side, one job) and each of `--seeds` run seeds, the system-level
/// fuzzer runs for `--finding-seconds`; each finding's time to first finding is when the
/// first case that showed it ended, from the run's start (shrinking earlier findings
/// included: it is what a user waiting for the report sees). Per finding: in how many
/// seeds it was found, the median and the worst time (the worst is "over S" when a seed
/// missed it).
enum FindingPowerBench {
    /// One configuration of the system-level fuzzer.
    struct Configuration: Hashable {
        var os: OSMode
        var dispatch: DispatchMode
        var label: String { "--os \(os.rawValue) --dispatch \(dispatch.rawValue)" }
        static let all: [Configuration] = [
            .init(os: .manual, dispatch: .serial), .init(os: .ios, dispatch: .serial),
            .init(os: .manual, dispatch: .tauri), .init(os: .ios, dispatch: .tauri),
        ]
    }

    /// One finding in one configuration: the wall times of the seeds that found it.
    struct Row {
        var configuration: Configuration
        var signature: String
        var times: [Double]
        var seeds: Int
        var cap: Double

        /// The median of the seeds that found it (the mean of the middle two for an even count).
        var median: Double {
            let t = times.sorted()
            return t.count % 2 == 1 ? t[t.count / 2] : (t[t.count / 2 - 1] + t[t.count / 2]) / 2
        }
        /// The worst seed's time, nil when a seed missed it (worse than the cap).
        var worst: Double? { times.count == seeds ? times.max() : nil }
    }

    /// What the command line asks for.
    struct Request {
        var plugin = PluginLocator.builtin
        var seeds = 10
        var seconds = 10.0
        var json = false
    }

    /// Runs every configuration and seed; progress on stderr.
    static func measure(_ r: Request) throws(PluginFailure) -> [Row] {
        var rows: [Row] = []
        for c in Configuration.all {
            var times: [String: [Double]] = [:]
            for seed in 1...r.seeds {
                let fuzzer = SystemFuzzer(
                    configuration: .init(
                        plugin: PluginLocator.launcher(r.plugin, arguments: arguments(c, seed: UInt64(seed))),
                        behaviour: .seed, seed: UInt64(seed), runs: nil, seconds: r.seconds, maxSteps: 30, jobs: 1,
                        os: c.os, dispatch: c.dispatch),
                    progress: FuzzProgress(quiet: true))
                _ = try fuzzer.run()
                for (signature, timing) in fuzzer.timings { times[signature, default: []].append(timing.foundAfter) }
                Console.err(
                    "bench --findings: \(c.label), seed \(seed) of \(r.seeds): \(fuzzer.timings.count) findings, "
                        + "\(fuzzer.totals.steps) steps")
            }
            rows += times.keys.sorted().map {
                Row(configuration: c, signature: $0, times: times[$0]!, seeds: r.seeds, cap: r.seconds)
            }
        }
        return rows
    }

    /// The plugin's arguments for a configuration, as `plugin-host fuzz --level system` gives them.
    static func arguments(_ c: Configuration, seed: UInt64) -> [String] {
        ["--profile", "seed", "--clock", "virtual"] + (c.os == .ios ? ["--os", "ios", "--os-seed", String(seed)] : [])
            + (c.dispatch == .tauri ? ["--dispatch", "tauri"] : [])
    }

    /// The table, a row per finding and configuration.
    static func text(_ rows: [Row], _ r: Request) -> String {
        var lines = [
            "time to first finding, system level, seed plugin and Rust side, 1 job, \(r.seeds) seeds, "
                + "\(r.seconds) s each (\(r.plugin == PluginLocator.builtin ? "built-in engine" : r.plugin))",
            "configuration                   found  median    worst     finding",
        ]
        for row in rows {
            let worst = row.worst.map { String(format: "%7.2f s", $0) } ?? String(format: "> %5.1f s", row.cap)
            lines.append(
                row.configuration.label.padding(toLength: 32, withPad: " ", startingAt: 0)
                    + "\(row.times.count)/\(row.seeds)".padding(toLength: 7, withPad: " ", startingAt: 0)
                    + String(format: "%6.2f s  ", row.median) + worst + "  " + row.signature)
        }
        return lines.joined(separator: "\n")
    }

    /// The table as JSON.
    static func json(_ rows: [Row], _ r: Request) -> JSONValue {
        .object([
            "seeds": .number(JSONNumber(r.seeds)), "secondsPerRun": .number(JSONNumber(r.seconds)),
            "plugin": .string(r.plugin),
            "findings": .array(
                rows.map { row in
                    .object([
                        "os": .string(row.configuration.os.rawValue),
                        "dispatch": .string(row.configuration.dispatch.rawValue),
                        "signature": .string(row.signature), "found": .number(JSONNumber(row.times.count)),
                        "medianSeconds": .number(JSONNumber(row.median)),
                        "worstSeconds": row.worst.map { .number(JSONNumber($0)) } ?? .null,
                    ])
                }),
        ])
    }
}

extension BenchCommand {
    /// `plugin-host bench --findings [--seeds N] [--finding-seconds S] [--plugin PATH|builtin] [--json]`.
    static func runFindings(_ arguments: [String]) -> Int32 {
        var r = FindingPowerBench.Request()
        do throws(Arguments.UsageError) {
            let args = try Arguments(
                arguments, options: ["--plugin", "--seeds", "--finding-seconds"],
                flags: ["--help", "--findings", "--json"])
            if args.has("--help") {
                Console.out(usage)
                return ExitCode.ok
            }
            guard args.positional.isEmpty else {
                throw Arguments.UsageError("unexpected argument \"\(args.positional[0])\"")
            }
            r.seeds = try args.int("--seeds", default: r.seeds, range: 1...1000)
            r.seconds = try args.double("--finding-seconds", default: r.seconds, range: 0.1...3600)
            r.json = args.has("--json")
            r.plugin = PluginLocator.resolve(args.value("--plugin") ?? PluginLocator.builtin)
            guard PluginLocator.isAvailable(r.plugin) else {
                return HostCLI.pluginMissing("bench", path: r.plugin, explicit: true, usage: usage)
            }
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        let rows: [FindingPowerBench.Row]
        do throws(PluginFailure) {
            rows = try FindingPowerBench.measure(r)
        } catch {
            HostCLI.diagnose("bench", "the plugin failed: \(error)")
            return error.kind == .didNotStart ? ExitCode.pluginDidNotStart : ExitCode.pluginMisbehaved
        }
        if r.json {
            Console.json(FindingPowerBench.json(rows, r))
        } else {
            Console.out(FindingPowerBench.text(rows, r))
        }
        return ExitCode.ok
    }
}
