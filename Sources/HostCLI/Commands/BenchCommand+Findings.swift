import Foundation
import HostProtocol
import PluginFuzzing
import PluginHost

/// `plugin-host bench --findings`: the fuzzer's finding power (issue 25). For each
/// configuration (`--os manual` and `--os ios`, `--dispatch serial` and `tauri`, the seed
/// plugin and the seed Rust side, one job) and each of `--seeds` run seeds, the system-level
/// fuzzer runs for `--finding-seconds`; a finding's time to first finding is when the first
/// case that showed it ended, from the run's start (shrinking earlier findings included: it
/// is what a user waiting for the report sees), whether it was shrunk and kept or not. Per
/// finding: in how many seeds it was found, the median over every seed (a seed that missed it
/// counts as longer than the cap, so a finding found in fewer than half the seeds has a
/// median "> S") and the worst. A finding seen in a configuration is listed in it and in
/// every configuration that contains it (`--os ios` the `--os manual` host, `--dispatch tauri`
/// the serial orders), `0/N` where no seed found it. A plugin that fails in one seed's run
/// is counted and reported; the others go on.
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

        /// The median over every seed, a miss counting as longer than the cap; nil when it is one.
        var median: Double? {
            let all = times.sorted() + Array(repeating: Double.infinity, count: seeds - times.count)
            let m = all.count % 2 == 1 ? all[all.count / 2] : (all[all.count / 2 - 1] + all[all.count / 2]) / 2
            return m.isFinite ? m : nil
        }
        /// The worst seed's time, nil when a seed missed it (worse than the cap).
        var worst: Double? { times.count == seeds ? times.max() : nil }
    }

    /// What a run measured: the rows, and the seeds whose plugin failed (by configuration).
    struct Measurement {
        var rows: [Row] = []
        var failures: [String] = []
    }

    /// What the command line asks for.
    struct Request {
        var plugin = PluginLocator.builtin
        var seeds = 10
        var seconds = 10.0
        var json = false
        /// `--swarm`: the fuzzer's swarm testing.
        var swarm = false
        /// `--clock-bias`: the fuzzer's clock bias.
        var clockBias = false
        /// `--guided`: the fuzzer's guided search.
        var guided = false
    }

    /// Runs every configuration and seed; progress on stderr.
    static func measure(_ r: Request) -> Measurement {
        var found: [Configuration: [String: [Double]]] = [:]
        var m = Measurement()
        for c in Configuration.all {
            for seed in 1...r.seeds {
                var configuration = SystemFuzzer.Configuration(
                    plugin: PluginLocator.launcher(r.plugin, arguments: arguments(c, seed: UInt64(seed))),
                    behaviour: .seed, seed: UInt64(seed), runs: nil, seconds: r.seconds, maxSteps: 30, jobs: 1,
                    os: c.os, dispatch: c.dispatch)
                configuration.swarm = r.swarm
                configuration.clockBias = r.clockBias
                configuration.guided = r.guided
                let fuzzer = SystemFuzzer(configuration: configuration, progress: FuzzProgress(quiet: true))
                var failed = ""
                do throws(PluginFailure) { _ = try fuzzer.run() } catch {
                    failed = " (the plugin failed: \(error); the findings before it are kept)"
                    m.failures.append("\(c.label), seed \(seed): \(error)")
                }
                for (signature, after) in fuzzer.firstSeen {
                    found[c, default: [:]][signature, default: []].append(after)
                }
                Console.err(
                    "bench --findings: \(c.label), seed \(seed) of \(r.seeds): \(fuzzer.firstSeen.count) findings, "
                        + "\(fuzzer.totals.steps) steps\(failed)")
            }
        }
        for c in Configuration.all {
            // What applies here: what was found here or in a configuration this one contains
            // (`--os ios` runs `--os manual`'s host; `tauri` can take `serial`'s orders).
            let within = Configuration.all.filter {
                ($0.os == c.os || $0.os == .manual) && ($0.dispatch == c.dispatch || $0.dispatch == .serial)
            }
            let applies = Set(within.flatMap { found[$0]?.keys.map { $0 } ?? [] })
            for signature in applies.sorted() {
                let times = found[c]?[signature] ?? []
                m.rows.append(Row(configuration: c, signature: signature, times: times, seeds: r.seeds, cap: r.seconds))
            }
        }
        return m
    }

    /// The plugin's arguments for a configuration, as `plugin-host fuzz --level system` gives them.
    static func arguments(_ c: Configuration, seed: UInt64) -> [String] {
        ["--profile", "seed", "--clock", "virtual"] + (c.os == .ios ? ["--os", "ios", "--os-seed", String(seed)] : [])
            + (c.dispatch == .tauri ? ["--dispatch", "tauri"] : [])
    }

    /// The table, a row per finding and configuration.
    static func text(_ m: Measurement, _ r: Request) -> String {
        let search = FuzzCommand.searchOptions(swarm: r.swarm, clockBias: r.clockBias, guided: r.guided)
        let width = max(String("\(r.seeds)/\(r.seeds)").count + 2, 7)
        var lines = [
            "time to first finding, system level\(search.isEmpty ? "" : " (\(search.joined(separator: ", ")))"), "
                + "seed plugin and Rust side, 1 job, "
                + "\(r.seeds) seeds, "
                + "\(r.seconds) s each (\(r.plugin == PluginLocator.builtin ? "built-in engine" : r.plugin)); "
                + "a seed that missed a finding counts as longer than \(r.seconds) s",
            "configuration                   " + "found".padding(toLength: width, withPad: " ", startingAt: 0)
                + "median     worst      finding",
        ]
        func seconds(_ t: Double?) -> String {
            t.map { String(format: "%7.2f s  ", $0) } ?? String(format: "> %5.1f s  ", r.seconds)
        }
        for row in m.rows {
            lines.append(
                row.configuration.label.padding(toLength: 32, withPad: " ", startingAt: 0)
                    + "\(row.times.count)/\(row.seeds)".padding(toLength: width, withPad: " ", startingAt: 0)
                    + seconds(row.median) + seconds(row.worst) + row.signature)
        }
        lines += m.failures.map { "the plugin failed: \($0)" }
        return lines.joined(separator: "\n")
    }

    /// The table as JSON (`medianSeconds` and `worstSeconds` null past the cap).
    static func json(_ m: Measurement, _ r: Request) -> JSONValue {
        .object([
            "seeds": .number(JSONNumber(r.seeds)), "secondsPerRun": .number(JSONNumber(r.seconds)),
            "plugin": .string(r.plugin), "swarm": .bool(r.swarm),
            "clockBias": .bool(r.clockBias), "guided": .bool(r.guided),
            "failures": .array(m.failures.map { .string($0) }),
            "findings": .array(
                m.rows.map { row in
                    .object([
                        "os": .string(row.configuration.os.rawValue),
                        "dispatch": .string(row.configuration.dispatch.rawValue),
                        "signature": .string(row.signature), "found": .number(JSONNumber(row.times.count)),
                        "medianSeconds": row.median.map { .number(JSONNumber($0)) } ?? .null,
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
                flags: ["--help", "--findings", "--json", "--swarm", "--clock-bias", "--guided"])
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
            r.swarm = args.has("--swarm")
            r.clockBias = args.has("--clock-bias")
            r.guided = args.has("--guided")
            r.plugin = PluginLocator.resolve(args.value("--plugin") ?? PluginLocator.builtin)
            guard PluginLocator.isAvailable(r.plugin) else {
                return HostCLI.pluginMissing("bench", path: r.plugin, explicit: true, usage: usage)
            }
        } catch {
            return HostCLI.usageError(error.description, usage: usage)
        }
        if let checked = HostCLI.stopAfterCheckingArguments("bench") { return checked }
        let measured = FindingPowerBench.measure(r)
        if r.json {
            Console.json(FindingPowerBench.json(measured, r))
        } else {
            Console.out(FindingPowerBench.text(measured, r))
        }
        if !measured.failures.isEmpty {
            HostCLI.diagnose(
                "bench", "the plugin failed in \(measured.failures.count) run(s): see the table's last lines")
            return ExitCode.pluginMisbehaved
        }
        return ExitCode.ok
    }
}
