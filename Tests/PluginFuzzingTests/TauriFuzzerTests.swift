import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import PluginInProcess
import Testing

@testable import PluginFuzzing

/// The plugin-level fuzzer under `--dispatch tauri`: from a fixed seed and a bounded number
/// of cases it finds the seed's cross-queue races unaided, shrinks them to a few steps with
/// the schedule that makes them, the traces replay exactly; `strict` finds nothing.
@Suite("Plugin-level fuzzer, --dispatch tauri")
struct TauriFuzzerTests {
    static let seed: UInt64 = 1
    static let runs = 200

    static func arguments(_ profile: Profile, dispatch: DispatchMode = .tauri) -> [String] {
        ["--profile", profile.rawValue, "--clock", "virtual", "--events", "--dispatch", dispatch.rawValue]
    }

    func fuzzer(_ profile: Profile) -> PluginFuzzer {
        PluginFuzzer(
            configuration: .init(
                plugin: .inProcess(arguments: Self.arguments(profile), stderrPrefix: ""), profile: profile,
                seed: Self.seed, runs: Self.runs, seconds: 600, maxSteps: 30, jobs: 1, dispatch: .tauri),
            progress: FuzzProgress(quiet: true))
    }

    /// The double completion and the lost `waitForCancel`, each at most 4 steps ending in the
    /// racing batch with its schedule; the same run twice gives the same traces; each trace
    /// replays identically against the binary, and with every choice flipped to `ipc` the race
    /// no longer happens (the schedule is what makes it).
    @Test func seedRacesAreFoundShrunkAndReplayed() async throws {
        let f = fuzzer(.seed)
        let findings = try await onThread { try f.run() }
        let again = try await onThread { try fuzzer(.seed).run() }
        #expect(findings.map(\.steps) == again.map(\.steps))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tauri-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for rule in ["exactly-once", "invoke.never-answered"] {
            let finding = try #require(findings.first { $0.signature == "os/violation \(rule)" }, "\(rule) not found")
            #expect(finding.steps.count <= 4, "\(finding.steps.map(\.summary))")
            let race = try #require(finding.outcome.violations.first { $0.rule == rule })
            let batch = finding.steps[race.step]
            #expect(batch.members?.count == 2 && batch.schedule.contains(.main), "\(batch.summary)")
            // The schedule is what the plugin took, without the trailing `ipc` choices.
            #expect(PluginCase.trimmed(finding.outcome.taken[race.step]) == batch.schedule)
            #expect(batch.schedule.last == .main, "\(batch.summary)")

            let trace = finding.trace(profile: .seed, seed: Self.seed, pluginArguments: Self.arguments(.seed))
            let path = try trace.write(to: dir, name: "\(rule).jsonl")
            let replay = try await runHost(["replay", path, "--plugin", Binaries.plugin])
            #expect(replay.status == 0, "\(replay.stdout)")
            #expect(replay.stdout.contains("identical") && replay.stdout.contains("finding: still reproduces"))

            var ipcOnly = finding.steps
            ipcOnly[race.step].schedule = ipcOnly[race.step].schedule.map { _ in .ipc }
            let calm = ipcOnly
            let outcome = try await onThread {
                let driver = try PluginDriver(plugin: .inProcess(arguments: Self.arguments(.seed)))
                defer { driver.close() }
                return PluginCase(steps: calm, dispatch: .tauri).run(on: driver, profile: .seed, resetID: 1)
            }
            #expect(outcome.violations.isEmpty, "\(outcome.violations)")
        }
    }

    /// The same cases under `strict`: every frame as the model predicts (the batch's `os/`
    /// controls first, then its invokes), no violation. The run had racing batches to offer.
    @Test func strictFindsNothingOverTheSameRun() async throws {
        let f = fuzzer(.strict)
        let findings = try await onThread { try f.run() }
        #expect(findings.isEmpty, "\(findings.map { "\($0.signature): \($0.explanation)" })")
        #expect(f.totals.cases == Self.runs)
        let batches = (0..<Self.runs).map { f.generateCase(seed: f.caseSeed($0)).filter { $0.members != nil }.count }
        #expect(batches.reduce(0, +) > Self.runs, "\(batches.reduce(0, +)) racing batches in \(Self.runs) cases")
    }

    /// The model's batches (one reply array in request order, held back by a stored
    /// `waitForCancel`, written when it is answered) against the plugin under `--dispatch
    /// serial`, where a batch's members run in request order: the same cases, every frame equal.
    @Test func theModelsBatchesAgreeWithTheSerialPlugin() async throws {
        let mismatches = try await onThread { () throws -> [String] in
            let driver = try PluginDriver(plugin: .inProcess(arguments: Self.arguments(.seed, dispatch: .serial)))
            defer { driver.close() }
            var found: [String] = []
            var held = 0
            for n in 0..<150 {
                var generator = StepGenerator(seed: UInt64(n), batches: true)
                var model = ReferenceModel(profile: .seed)
                var steps: [FuzzStep] = []
                for _ in 0..<25 {
                    let step = generator.next(model: model)
                    _ = model.apply(step.input)
                    if model.state.held != nil { held += 1 }
                    steps.append(step)
                }
                let outcome = PluginCase(steps: steps).run(on: driver, profile: .seed, resetID: n)
                if let s = outcome.signature { found.append("case \(n): \(s)") }
            }
            #expect(held > 10, "only \(held) steps left a batch reply held back")
            return found
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// A held batch reply, by hand: `[waitForCancel, startKeepalive]` writes the start's
    /// events but no array; `cancelCancelListener` then writes the array (the wait's
    /// rejection and the start's answer, in request order) before its own answer.
    @Test func aWaitForCancelHoldsItsBatchBack() {
        var model = ReferenceModel(profile: .seed)
        let batch = model.apply(
            .batch([
                .request(Request(id: .int(2), method: WaitForCancel.name)),
                .request(Request(id: .int(3), method: StartKeepalive.name, params: .object([:]))),
            ]))
        #expect(batch.count == 2 && batch.allSatisfy { $0["method"] != nil })
        let cancel = model.apply(.request(Request(id: .int(4), method: CancelCancelListener.name)))
        #expect(cancel.count == 2)
        #expect(cancel.first?.arrayValue?.map { $0["id"] } == [.number(2), .number(3)])
        #expect(cancel.first?.arrayValue?.first?["error"]?["data"]?["reason"] == "listenerCancelled")
        #expect(cancel.last?["id"] == .number(4))
    }

    /// Exhaustive mode at depth 3: both races among the one-preemption schedules of the race
    /// letters (`start`, `launch-refresh`, then the race); none under `strict`.
    @Test(arguments: Profile.allCases)
    func exhaustiveModeFindsTheRaces(profile: Profile) async throws {
        let failures = try await onThread { () throws -> [String: [FuzzStep]] in
            let driver = try PluginDriver(plugin: .inProcess(arguments: Self.arguments(profile)))
            defer { driver.close() }
            let explorer = ExhaustiveExplorer(
                driver: driver, profile: profile, progress: FuzzProgress(quiet: true), dispatch: .tauri)
            _ = try explorer.explore(depth: 3)
            return explorer.failures
        }
        if profile == .strict {
            #expect(failures.isEmpty, "\(failures.keys.sorted())")
        } else {
            #expect(Set(failures.keys) == ["os/violation exactly-once", "os/violation invoke.never-answered"])
            #expect(failures.values.allSatisfy { $0.count == 3 && $0.last?.members != nil })
        }
    }

    /// Under `seed` the orders a checker tries keep each queue's own order.
    @Test func interleavingsKeepEachQueuesOrder() {
        let members: [ReferenceModel.Input] = [
            .request(Request(id: .int(1), method: CompleteBgTask.name)),
            .request(Request(id: .int(2), method: OSExpire.name)),
            .request(Request(id: .int(3), method: WaitForCancel.name)),
        ]
        let orders = ReferenceModel.interleavings(members)
        #expect(Set(orders) == [[0, 2, 1], [0, 1, 2], [1, 0, 2]])
    }
}
