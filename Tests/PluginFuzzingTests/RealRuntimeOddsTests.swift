import Foundation
import HostProtocol
import HostSimulation
import HostTestSupport
import PluginHost
import RustSide
import Testing

@testable import PluginFuzzing

/// The real Rust runtime's figures for each race (issue 27), kept apart from the fuzzer's
/// draw weights, and the statements the reports make from a case's recorded orders.
@Suite("Races on the real runtime")
struct RealRuntimeOddsTests {
    static let directory = PackageRoot.url("docs/findings")

    /// The recorded orders of a committed system trace, as race records (from its scenario's frozen plan).
    static func records(of name: String) throws -> [RaceRecord] {
        let trace = try TraceFile.read(path: directory.appendingPathComponent(name).path)
        let (c, _) = try trace.systemCase()
        return c.scenario.races.choices.sorted { $0.key < $1.key }.flatMap { race, sides in
            sides.map { RaceRecord(race: race, run: nil, first: $0) }
        }
    }

    /// The system traces committed, sorted.
    static let systemTraces: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().filter {
            (try? TraceFile.read(path: directory.appendingPathComponent($0).path).header.level) == "system"
        }
    }()

    @Test func everyOrderStaysReachableByTheFuzzer() {
        for race in Race.allCases {
            #expect(race.secondFirstChance >= Race.drawFloor, "\(race) draws its second side below the floor")
            #expect(race.secondFirstChance <= 1 - Race.drawFloor, "\(race) draws its first side below the floor")
        }
        #expect(Race.drawFloor > 0)
    }

    @Test func theMeasuredFiguresAreKeptApartFromTheDrawWeights() throws {
        let stop = try #require(Race.stopVsCompletion.realRuntime)
        #expect(stop.count(.first) == 1400 && stop.count(.second) == 0 && stop.trials == 1400)
        #expect(stop.secondFirstProportion == 0)
        #expect(Race.stopVsCompletion.secondFirstChance > stop.secondFirstProportion)
        // Drawn with the measured figure, clamped: completion-first at the floor.
        #expect(Race.stopVsCompletion.secondFirstChance == Race.drawFloor)
        #expect(Race.listenerVsCompletion.secondFirstChance == 0.75)
        #expect(Race.drawWeight(1) == 1 - Race.drawFloor && Race.drawWeight(0.3) == 0.3)
        let listener = try #require(Race.listenerVsCompletion.realRuntime)
        #expect(listener.trials == nil && listener.secondFirstProportion == 0.75)
        #expect(Race.runEndVsApp.realRuntime == nil && Race.pluginVsHostDeadline.realRuntime == nil)
    }

    @Test func statementsSayTheCountsOrThatNothingWasMeasured() {
        #expect(
            Race.stopVsCompletion.realRuntimeStatement(.second)
                == "stop-vs-completion completion-first: 0 of 1,400 trials on the real runtime")
        #expect(
            Race.stopVsCompletion.realRuntimeStatement(.first)
                == "stop-vs-completion stop-first: 1,400 of 1,400 trials on the real runtime")
        #expect(Race.listenerVsCompletion.realRuntimeStatement(.second).contains("about 75 %"))
        #expect(Race.listenerVsCompletion.realRuntimeStatement(.first).contains("about 25 %"))
        #expect(
            Race.runEndVsApp.realRuntimeStatement(.first)
                == "run-end-vs-app run-end-first: not measured on the real runtime")
        #expect(Race.grouped(1_234_567) == "1,234,567" && Race.grouped(12) == "12")
    }

    /// The statements follow the orders a committed trace recorded: the "task let go" trace took
    /// the order never seen on the real runtime, D3's took the one always seen.
    @Test func statementsFollowACommittedTracesOrders() throws {
        let letGo = RaceRecord.realRuntimeStatements(try Self.records(of: "tauri-seed-d2-task-let-go.jsonl"))
        #expect(letGo == ["stop-vs-completion completion-first: 0 of 1,400 trials on the real runtime"])
        let d3 = RaceRecord.realRuntimeStatements(try Self.records(of: "seed-d3-resolved.jsonl"))
        #expect(d3.contains("stop-vs-completion stop-first: 1,400 of 1,400 trials on the real runtime"))
        #expect(d3.contains("run-end-vs-app run-end-first: not measured on the real runtime"))
        #expect(d3.filter { $0.hasPrefix("listener-vs-completion") }.count == 2)
    }

    /// docs/findings.md states, for each committed system trace, how likely each of its orders is.
    @Test func theFindingsDocumentStatesEachTracesOdds() throws {
        let doc = try String(
            contentsOf: Self.directory.deletingLastPathComponent().appendingPathComponent("findings.md"),
            encoding: .utf8)
        #expect(Self.systemTraces.count >= 10)
        for name in Self.systemTraces {
            let statements = RaceRecord.realRuntimeStatements(try Self.records(of: name))
            let row = doc.split(separator: "\n").first { $0.hasPrefix("| `\(name)` |") }.map(String.init)
            let line = try #require(row, "docs/findings.md has no odds row for \(name)")
            for s in statements { #expect(line.contains(s), "\(name)'s row does not say \(s)") }
            if statements.isEmpty { #expect(line.contains("no race of the Rust side decided"), "\(name): \(line)") }
        }
    }

    /// A case run with `completion-first` reports it, in words and in its JSON, from its recorded orders.
    @Test func aCasesOutcomeReportsTheOrdersItTook() async throws {
        let plugin = PluginLauncher(executable: Binaries.plugin, arguments: ["--profile", "seed"], stderrPrefix: "")
        for side in [Race.Side.first, .second] {
            let c = SystemCase(
                scenario: SystemScenario(
                    runs: [
                        SystemScenario.Run(
                            initSeconds: 0, initFails: false, runSeconds: 1000, outcome: .success, onCancel: .throwError
                        )
                    ],
                    safetyTimeout: 28, processingSafetyTimeout: 0, listenerTimeout: 14_400, earliestMinutes: 15,
                    blockingThreads: 4, races: RacePlan(choices: [.stopVsCompletion: [side]])),
                actions: [.start, .stop])
            let outcome = try await onThread {
                c.run(plugin: plugin, behaviour: .seed, answerTimeout: FuzzTestTimeouts.systemAnswer)
            }
            let taken = outcome.allRaces.filter { $0.race == .stopVsCompletion }.map(\.first)
            #expect(taken == [side])
            let expected = Race.stopVsCompletion.realRuntimeStatement(side)
            #expect(outcome.realRuntime.contains(expected))
            let entry = try #require(
                outcome.realRuntimeJSON.arrayValue?.first { $0["race"]?.stringValue == "stop-vs-completion" })
            #expect(entry["order"]?.stringValue == Race.stopVsCompletion.order(side))
            #expect(entry["seen"]?.description == (side == .first ? "1400" : "0"))
            #expect(entry["trials"]?.description == "1400")
            #expect(entry["statement"]?.stringValue == expected)
        }
    }

    /// `plugin-host replay` prints the statements of the trace's recorded orders.
    @Test(.timeLimit(.minutes(5))) func replayPrintsTheOdds() async throws {
        let name = "tauri-seed-d2-task-let-go.jsonl"
        let path = Self.directory.appendingPathComponent(name).path
        let r = try await runHost(["replay", path, "--plugin", Binaries.plugin])
        for s in RaceRecord.realRuntimeStatements(try Self.records(of: name)) {
            #expect(r.stdout.contains("\non the real runtime: \(s)\n"), "\(r.stdout)")
        }
    }
}
