import Foundation
import HostProtocol
import HostSimulation
import HostTestSupport
import PluginHost
import RustSide
import Testing

@testable import PluginFuzzing

/// The system fuzzer and the app's main thread under `--os ios --dispatch tauri` (issue 22):
/// the alphabet's main-thread actions, the off-thread invalidation as a race, and I1 naming a
/// kill of a blocked main thread for what it is.
@Suite("System fuzzer: the main thread (--os ios --dispatch tauri)")
struct MainThreadFuzzTests {
    static func plugin(_ profile: Profile) -> PluginLauncher {
        PluginLauncher(
            executable: Binaries.plugin,
            // (The model before issue 23: these cases pin main-thread races, not suspension.)
            arguments: [
                "--profile", profile.rawValue, "--os", "ios", "--os-seed", "7", "--dispatch", "tauri",
                "--ios-defaults", "legacy",
            ],
            stderrPrefix: "")
    }

    static func scenario(runSeconds: Double, races: RacePlan = RacePlan()) -> SystemScenario {
        SystemScenario(
            runs: [
                .init(
                    initSeconds: 0, initFails: false, runSeconds: runSeconds, outcome: .success, onCancel: .throwError)
            ],
            safetyTimeout: 28, processingSafetyTimeout: 0, listenerTimeout: 14_400, earliestMinutes: 15, races: races)
    }

    static func run(_ c: SystemCase, plugin: Profile, host: Profile) -> SystemCase.Outcome {
        c.run(
            plugin: Self.plugin(plugin), behaviour: host, dispatch: .tauri, answerTimeout: FuzzTestTimeouts.systemAnswer
        )
    }

    @Test func aCallerBlockingMainIsNamedAMainThreadKill() async throws {
        // A stop called from a synchronous command on the main thread (the seed Rust side's blocking
        // API) while a refresh task runs; the strict plugin hops to main before answering: a deadlock,
        // and 20 s later the main-thread watchdog's kill. I1 says so, and not that an expired task was
        // left uncompleted (no task expired: the budget's expiration waits for main too).
        let c = SystemCase(
            scenario: Self.scenario(runSeconds: 3600),
            actions: [.start, .launch(.refresh), .onMainThread(.stop), .advance(.init(seconds: 30)!)])
        let outcome = try await onThread { Self.run(c, plugin: .strict, host: .seed) }
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        let signatures = outcome.signatures
        #expect(signatures.contains("I6: the plugin hops to the main queue its own caller blocks: a deadlock"))
        #expect(signatures.contains("I1: " + InvariantChecker.mainThreadKillCause), "\(signatures)")
        #expect(
            !signatures.contains { $0.hasPrefix("I1: the watchdog killed the app: an expired task") }, "\(signatures)")
        let kill = try #require(outcome.first("I1: " + InvariantChecker.mainThreadKillCause))
        #expect(kill.violation.detail.contains("a caller on the main thread waits for stopKeepalive"))
        // The strict Rust side's commands are async: its stop never blocks main, and nothing breaks.
        let strict = try await onThread { Self.run(c, plugin: .strict, host: .strict) }
        #expect(strict.error == nil && strict.violations.isEmpty, "\(strict.signatures)")
    }

    @Test func theAppsOwnMainThreadWorkIsNoFinding() async throws {
        // The app's own work blocks main for 25 s while a refresh task runs: the main-thread watchdog
        // kills the app at 20 s of block, whatever the plugin and the Rust side do (the host's kill,
        // as I4's late registration). Before issue 22's fix I1 read it as an expired task left uncompleted.
        let c = SystemCase(
            scenario: Self.scenario(runSeconds: 3600),
            actions: [.start, .launch(.refresh), .blockMain(.init(seconds: 25)!), .advance(.init(seconds: 30)!)])
        for profile in [Profile.seed, .strict] {
            let outcome = try await onThread { Self.run(c, plugin: profile, host: profile) }
            #expect(outcome.error == nil, "\(outcome.error ?? "")")
            #expect(!outcome.signatures.contains { $0.hasPrefix("I1:") }, "\(profile): \(outcome.signatures)")
            let killed = outcome.timeline.joined().contains { $0.contains("watchdog") && $0.contains("0x8badf00d") }
            #expect(killed, "the main-thread watchdog killed the app")
        }
    }

    @Test func anOffThreadInvalidationIsARace() async throws {
        // A run of 5 s completes the refresh task on ipc; its cleanup() invalidates the safety timer
        // (due at 28 s) off its thread. fire-first (notRemoved): the timer stays, recorded as a race; a
        // refresh task launched at 10 s gets a timer of its own (38 s), and at 28 s the old one fires and
        // completes the new task: I7.
        let races = RacePlan(choices: [.invalidateVsFire: [.second]])
        let c = SystemCase(
            scenario: Self.scenario(runSeconds: 5, races: races),
            actions: [
                .start, .launch(.refresh), .advance(.init(seconds: 10)!), .launch(.refresh),
                .advance(.init(seconds: 30)!),
            ])
        let kept = try await onThread { Self.run(c, plugin: .seed, host: .seed) }
        #expect(kept.error == nil, "\(kept.error ?? "")")
        #expect(kept.allRaces.contains { $0.race == .invalidateVsFire && $0.first == .second })
        let fired = kept.timeline.joined().contains { $0.contains("safetyTimer") && $0.contains("fired") }
        #expect(fired, "the timer that was not removed fires")
        let stale = try #require(kept.first("I7: " + InvariantChecker.staleTimerCause), "\(kept.signatures)")
        #expect(stale.step == 4)
        #expect(stale.violation.detail.contains("due at 28 s fired, but the plugin's timer is the one due at 38 s"))
        // invalidate-first (removed, the default): no firing.
        let removedCase = SystemCase(
            scenario: Self.scenario(runSeconds: 5, races: RacePlan(choices: [.invalidateVsFire: [.first]])),
            actions: c.actions)
        let removed = try await onThread { Self.run(removedCase, plugin: .seed, host: .seed) }
        #expect(removed.allRaces.contains { $0.race == .invalidateVsFire && $0.first == .first })
        #expect(!removed.signatures.contains { $0.hasPrefix("I7:") }, "\(removed.signatures)")
    }

    @Test func i7ReadsTheTimerEvents() {
        func at(_ s: Double) -> VirtualTime { VirtualTime(seconds: s)! }
        let events: [SafetyTimerEvent.Params] = [
            .init(state: .started, deadline: at(28)), .init(state: .started, deadline: at(38)),
            .init(state: .fired, deadline: at(28)),
        ]
        var checker = InvariantChecker()
        #expect(checker.staleTimers(events, notRemoved: 1).map(\.invariant) == [.i7])
        #expect(checker.staleTimers(events, notRemoved: 1).isEmpty, "each event is read once")
        // No invalidation left its timer: no timer can outlive one, whatever the events say.
        var none = InvariantChecker()
        #expect(none.staleTimers(events, notRemoved: 0).isEmpty)
        // The plugin's own timer firing, or one invalidated with its event, is no finding.
        var own = InvariantChecker()
        let ordinary: [SafetyTimerEvent.Params] = [
            .init(state: .started, deadline: at(28)), .init(state: .invalidated, deadline: at(28)),
            .init(state: .started, deadline: at(38)), .init(state: .fired, deadline: at(38)),
        ]
        #expect(own.staleTimers(ordinary, notRemoved: 3).isEmpty)
    }

    @Test func theAlphabetDrawsTheMainThreadActions() {
        func kinds(ios: Bool, tauri: Bool) -> Set<String> {
            var g = SystemCaseGenerator(seed: 20_261_124)
            var seen: Set<String> = []
            for _ in 0..<400 {
                for a in g.actions(max: 30, ios: ios, tauri: tauri) {
                    seen.insert(a.json["action"]?.stringValue ?? "")
                    if case .together(_, let os, _) = a {
                        seen.insert("together:" + (os.json["action"]?.stringValue ?? ""))
                    }
                }
            }
            return seen
        }
        let iosTauri = kinds(ios: true, tauri: true)
        #expect(iosTauri.isSuperset(of: ["blockMain", "onMainThread", "maxConcurrentTasks", "webviewCreated"]))
        let iosSerial = kinds(ios: true, tauri: false)
        #expect(iosSerial.contains("maxConcurrentTasks"))
        #expect(iosSerial.isDisjoint(with: ["blockMain", "onMainThread", "together"]))
        #expect(kinds(ios: false, tauri: true).isDisjoint(with: ["blockMain", "onMainThread", "maxConcurrentTasks"]))
    }

    @Test func theNewActionsReadBack() throws {
        let actions: [SystemAction] = [
            .blockMain(.init(seconds: 19)!), .onMainThread(.start), .onMainThread(.stop), .maxConcurrentTasks(1),
            .maxConcurrentTasks(nil),
        ]
        for a in actions { #expect(try SystemAction.read(a.json) == a) }
        #expect(throws: SystemAction.ReadError.self) {
            try SystemAction.read(["action": "onMainThread", "command": ["action": "expire"]])
        }
        #expect(throws: SystemAction.ReadError.self) {
            try SystemAction.read(["action": "maxConcurrentTasks", "limit": 0])
        }
        #expect(throws: SystemAction.ReadError.self) { try SystemAction.read(["action": "blockMain", "seconds": -1]) }
    }
}
