import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// In-process runs of the engine under `--dispatch`, and the exhaustive enumeration of the
/// schedules of one batch.
enum Dispatching {
    /// Options for an in-process engine.
    static func options(
        _ dispatch: DispatchMode = .tauri, profile: Profile = .seed, seed: UInt64 = 0, faults: String? = nil,
        os: OSMode = .manual
    ) throws -> PluginOptions {
        var options = PluginOptions()
        options.osMode = os
        options.events = true
        options.dispatch = dispatch
        options.dispatchSeed = seed
        options.profile = profile
        options.faults = try FaultSet.parse(faults)
        return options
    }

    /// The output lines of a script of ndjson lines, fed in one piece (or byte by byte).
    static func lines(_ script: [String], _ options: PluginOptions, byteByByte: Bool = false) throws -> [String] {
        let engine = try PluginEngine(options: options)
        let input = Array(script.map { $0 + "\n" }.joined().utf8)
        var out: [UInt8] = []
        for chunk in byteByByte ? input.map({ [$0] }) : [input] {
            engine.receive(chunk)
            out += engine.takeOutput()
        }
        engine.endOfInput()
        out += engine.takeOutput()
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// A `plugin/dispatchSchedule` line.
    static func schedule(_ id: Int, _ choices: [DispatchQueueName], seed: Int? = nil) -> String {
        let list = choices.map { "\"\($0.rawValue)\"" }.joined(separator: ",")
        return req(id, "plugin/dispatchSchedule", #"{"choices":[\#(list)]\#(seed.map { ",\"seed\":\($0)" } ?? "")}"#)
    }

    /// One run of `batch` after `setup` under the schedule `choices`: the output after the
    /// setup's, and how many decisions the batch took.
    struct Outcome {
        let choices: [DispatchQueueName]
        let lines: [String]
        let decisions: Int
        var text: String { lines.joined(separator: "\n") }
    }

    static let reportID = 9_999

    /// Runs `setup`, installs `choices` (padded with `ipc`, so that no decision is left to the
    /// PRNG; nil: installs none, the PRNG decides), runs `batch` and reads the decisions back.
    static func run(
        setup: [String], batch: String, choices: [DispatchQueueName]?, _ options: PluginOptions
    ) throws -> Outcome {
        let padded = choices.map { $0 + Array(repeating: .ipc, count: 512) }
        let install = padded.map { [schedule(9_998, $0)] } ?? []
        let all = try lines(setup + install + [batch, schedule(reportID, [])], options)
        let before = try lines(setup, options).count + install.count
        let report = try #require(all.last)
        let result = try PluginDispatchSchedule.Result(json: try JSONParser.parse(Array(report.utf8))["result"]!)
        #expect(result.unused == (padded?.count ?? 0) - (padded == nil ? 0 : result.decisions))
        return Outcome(choices: result.taken, lines: Array(all[before..<(all.count - 1)]), decisions: result.decisions)
    }

    /// Every schedule of `batch`: each run takes `ipc` past its prefix; every decision past the
    /// prefix is then taken the other way, recursively. Each leaf is one distinct interleaving.
    static func allSchedules(
        setup: [String], batch: String, _ options: PluginOptions, limit: Int = 5_000
    ) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        var prefixes: [[DispatchQueueName]] = [[]]
        while let prefix = prefixes.popLast() {
            let outcome = try run(setup: setup, batch: batch, choices: prefix, options)
            outcomes.append(outcome)
            for i in prefix.count..<max(prefix.count, outcome.decisions) {
                prefixes.append(prefix + Array(repeating: .ipc, count: i - prefix.count) + [.main])
            }
            guard outcomes.count < limit else {
                Issue.record("more than \(limit) schedules")
                break
            }
        }
        return outcomes
    }
}
