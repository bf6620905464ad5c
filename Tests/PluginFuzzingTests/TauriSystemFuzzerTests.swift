import Foundation
import HostProtocol
import HostSimulation
import HostTestSupport
import PluginHost
import PluginInProcess
import Testing

@testable import PluginFuzzing

/// The system-level fuzzer under `--dispatch tauri`: an OS event and a host invoke at one
/// instant go out as one batch, the plugin's queue decisions are the race `ipc-vs-main`.
/// From a fixed seed and a bounded number of cases it finds the double completion (D2) and
/// the lost `waitForCancel` (D1), shrunk to a few steps, replayed exactly; the same cases
/// under `--dispatch serial` do not show them; `strict` finds nothing.
@Suite("System-level fuzzer, --dispatch tauri")
struct TauriSystemFuzzerTests {
    static let seed: UInt64 = 1
    static let runs = 200
    static let doubleCompletion = "D2: a task was completed twice"
    static let lostWait = "D1: a waitForCancel was lost between the plugin's queues"

    static func arguments(_ profile: Profile, _ dispatch: DispatchMode) -> [String] {
        ["--profile", profile.rawValue, "--clock", "virtual", "--dispatch", dispatch.rawValue]
    }

    func fuzzer(_ profile: Profile, _ dispatch: DispatchMode = .tauri) -> SystemFuzzer {
        SystemFuzzer(
            configuration: .init(
                plugin: .inProcess(arguments: Self.arguments(profile, dispatch), stderrPrefix: ""),
                behaviour: profile == .strict ? .strict : .seed, seed: Self.seed, runs: Self.runs, seconds: 600,
                maxSteps: 30, jobs: 1, dispatch: dispatch, answerTimeout: FuzzTestTimeouts.systemAnswer),
            progress: FuzzProgress(quiet: true))
    }

    /// Both races, each in at most 5 steps whose last made the plugin's queues decide; each
    /// trace replays identically against the binary; with every queue decision turned to
    /// `ipc-first` (the invoke runs through before the OS's handler) the race is gone.
    @Test func seedFindsBothRacesShrunkAndReplayed() async throws {
        let findings = try await onThread { try fuzzer(.seed).run() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tauri-sys-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let launcher = PluginLauncher.inProcess(arguments: Self.arguments(.seed, .tauri), stderrPrefix: "")
        for signature in [Self.doubleCompletion, Self.lostWait] {
            let finding = try #require(findings.first { $0.signature == signature }, "\(findings.map(\.signature))")
            let steps = finding.systemCase.actions.count
            #expect(steps <= 5, "\(signature): \(finding.systemCase.actions.map(\.summary))")
            let step = try #require(finding.outcome.first(signature)?.step)
            #expect(finding.outcome.races[step].contains { $0.race == .ipcVsMain }, "the queues decided it")

            let trace = finding.trace(profile: .seed, seed: Self.seed, pluginArguments: Self.arguments(.seed, .tauri))
            let path = try trace.write(to: dir, name: "\(steps).jsonl")
            let replay = try await runHost(["replay", path, "--plugin", Binaries.plugin])
            #expect(replay.status == 0 && replay.stdout.contains("identical"), "\(replay.stdout)")
            #expect(replay.stdout.contains("still broken"), "\(replay.stdout)")

            var calm = finding.systemCase
            calm.scenario.races.choices[.ipcVsMain] = calm.scenario.races.choices[.ipcVsMain]?.map { _ in .first }
            let plain = calm
            let outcome = try await onThread {
                plain.run(
                    plugin: launcher, behaviour: .seed, stopAt: signature, dispatch: .tauri,
                    answerTimeout: FuzzTestTimeouts.systemAnswer)
            }
            #expect(outcome.first(signature) == nil, "\(signature) without the interleaving")
        }
    }

    /// The same cases against the plugin under `--dispatch serial` (one queue): neither race.
    @Test func serialDispatchDoesNotShowThem() async throws {
        let findings = try await onThread { try fuzzer(.seed, .serial).run() }
        #expect(!findings.isEmpty, "the seed's other findings are still there")
        #expect(!findings.contains { [Self.doubleCompletion, Self.lostWait].contains($0.signature) })
    }

    /// `strict` (every invoke hops onto the main queue; the strict Rust side) over the same cases.
    @Test func strictFindsNothing() async throws {
        let f = fuzzer(.strict)
        let findings = try await onThread { try f.run() }
        #expect(findings.isEmpty, "\(findings.map { "\($0.signature): \($0.explanation)" })")
        #expect(f.totals.cases == Self.runs)
    }

    /// A held OS control goes out with the invoke it meets, as one batch; the batch's reply
    /// waits for its `waitForCancel`, so the control's answer comes when the wait is answered.
    @Test func aHeldCallGoesOutWithTheInvokeItMeets() async throws {
        try await onThread {
            let connection = SimulationConnection(
                wrapping: try PluginConnection(
                    launcher: .inProcess(arguments: ["--dispatch", "tauri"], stderrPrefix: "")))
            defer { connection.close() }
            _ = try connection.callBlocking(method: StartKeepalive.name, params: .object([:]))
            let held = Box<Result<JSONValue, HostError>?>(nil)
            connection.hold(method: OSAdvanceTime.name, params: ["seconds": 1], meeting: .method(WaitForCancel.name)) {
                held.set($0)
            }
            _ = try connection.callBlocking(method: PluginStateMethod.name, params: nil)
            #expect(connection.holdsACall, "a request of another method does not take it")
            let waited = DispatchSemaphore(value: 0)
            let wait = Box<Result<JSONValue, HostError>?>(nil)
            connection.start(method: WaitForCancel.name, params: nil) {
                wait.set($0)
                waited.signal()
            }
            #expect(!connection.holdsACall && !connection.releaseHeld(), "it went out with the waitForCancel")
            _ = try connection.callBlocking(method: PluginStateMethod.name, params: nil)
            #expect(held.get == nil, "the batch's reply waits for its waitForCancel")
            _ = try connection.callBlocking(method: CancelCancelListener.name, params: nil)
            #expect(waited.wait(timeout: .now() + 10) == .success)
            #expect(wait.get.map { (try? $0.get()) == nil } == true, "the wait was rejected")
            _ = try connection.callBlocking(method: PluginStateMethod.name, params: nil)
            #expect(try held.get?.get()["now"] == .number(1))
        }
    }
}
