import HostProtocol
import HostSimulation
import PluginHost
import RustSide

/// Draws random system cases: services with random timings and outcomes, a
/// random config and blocking pool, a seed for the races, and random app, user
/// and OS actions.
struct SystemCaseGenerator {
    var rng: SplitMix64

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
    }

    private mutating func pick<T>(_ options: [T]) -> T { options[rng.below(options.count)] }

    mutating func scenario() -> SystemScenario {
        let runs = (0..<(1 + rng.below(4))).map { _ in
            SystemScenario.Run(
                initSeconds: pick([0, 0, 0, 1]),
                initFails: rng.chance(0.1),
                runSeconds: pick([0, 0, 1, 5, 20, 27, 29, 60, 300, 3600, 100_000]),
                outcome: rng.chance(0.8) ? .success : .failure,
                onCancel: pick([.returnNormally, .throwError, .throwError, .ignore]))
        }
        // Small pools reach their end in a few steps; tokio's 512 takes 512 dropped waits.
        return SystemScenario(
            runs: runs, safetyTimeout: pick([28, 28, 10, 45]), processingSafetyTimeout: pick([0, 0, 30]),
            listenerTimeout: pick([14_400, 14_400, 100, 600]), earliestMinutes: pick([15, 15, 1, 0.5]),
            blockingThreads: pick([BlockingPool.tokioDefault, BlockingPool.tokioDefault, 3, 2]),
            races: RacePlan(seed: rng.next()))
    }

    /// `tauri`: some actions are ``SystemAction/together(_:os:invoke:)`` (`--dispatch tauri`).
    mutating func actions(max: Int, ios: Bool = false, tauri: Bool = false) -> [SystemAction] {
        (0..<(3 + rng.below(Swift.max(1, max - 2)))).map { _ in oneAction(ios: ios, tauri: tauri) }
    }

    /// One action of the alphabet the modes give.
    mutating func oneAction(ios: Bool, tauri: Bool) -> SystemAction {
        if tauri, rng.chance(Self.togetherChance) { return together() }
        if ios, tauri, rng.chance(Self.mainThreadChance) { return mainThread() }
        return ios ? iosAction() : action()
    }

    /// How often an action is about the app's main thread (`--os ios --dispatch tauri`).
    static let mainThreadChance = 0.08

    /// The app's main thread (issue 22): its own long work (`os/blockMain`, from a second to
    /// past the watchdog's 20 s allowance), or its `start` or `stop` called from a synchronous
    /// command on it (`x-mainThreadCaller`).
    mutating func mainThread() -> SystemAction {
        if rng.chance(0.6) {
            return .blockMain(VirtualTime(seconds: Double(pick([1, 5, 10, 19, 25, 60])))!)
        }
        return .onMainThread(rng.chance(0.6) ? .start : .stop)
    }

    /// How often an action is an OS event at the instant of a host invoke (`--dispatch tauri`).
    static let togetherChance = 0.15

    /// An OS event (mostly the running task's expiration, else a launch) at the instant the
    /// Rust side writes an invoke that the action played with it can make it write: the
    /// app's start (its listener's `waitForCancel`, or `startKeepalive`), its stop
    /// (`stopKeepalive`, the cancelled service's `completeBgTask`), or time passing (a
    /// service's `completeBgTask`, a listener's `cancelCancelListener` or `waitForCancel`).
    mutating func together() -> SystemAction {
        let during: SystemAction
        let invoke: String
        switch rng.below(3) {
        case 0:
            during = .start
            invoke = pick([WaitForCancel.name, WaitForCancel.name, StartKeepalive.name])
        case 1:
            during = .stop
            invoke = pick([StopKeepalive.name, CompleteBgTask.name, CancelCancelListener.name])
        default:
            during = .advance(VirtualTime(seconds: pick([1, 5, 20, 28, 60, 300, 3600]))!)
            invoke = pick([CompleteBgTask.name, CompleteBgTask.name, CancelCancelListener.name, WaitForCancel.name])
        }
        let os: SystemAction = rng.chance(0.75) ? .expire : .launch(rng.chance(0.7) ? .refresh : .processing)
        return .together(during, os: os, invoke: invoke)
    }

    /// Under `--os ios`: whether the app starts the service at launch.
    mutating func ios(_ scenario: inout SystemScenario) {
        scenario.restartAtLaunch = rng.chance(0.3)
    }

    /// Under `--os ios` the OS launches and expires on its own; the alphabet adds what
    /// only iOS or the user does: the new conditions, termination, opening the app, the policy
    /// (`multipleScenes`, `maxConcurrentTasks` and `appStates` among it), a new webview, the
    /// user leaving the app (`os/sendToBackground`; with `appStates` on, opening a running
    /// app brings it to the foreground).
    mutating func iosAction() -> SystemAction {
        switch rng.below(100) {
        case 0..<14: return .start
        case 14..<20: return .stop
        case 20..<25: return .launch(.refresh)
        case 25..<28: return .launch(.processing)
        case 28..<32: return .expire
        case 32..<66:
            let seconds = pick([1, 3, 5, 10, 28, 30, 60, 300, 600, 900, 1800, 3600, 14_400, 43_200])
            return .advance(VirtualTime(seconds: Double(seconds))!)
        case 66..<78:
            switch rng.below(7) {
            case 0: return .iosConditions(.init(batteryLevel: pick([1, 0.5, 0.2, 0.19, 0.05])))
            case 1: return .iosConditions(.init(lowPowerMode: rng.chance(0.5)))
            case 2: return .iosConditions(.init(deviceInUse: rng.chance(0.5)))
            case 3: return .iosConditions(.init(base: .init(externalPower: rng.chance(0.5))))
            case 4: return .iosConditions(.init(base: .init(networkConnected: rng.chance(0.6))))
            case 5: return .iosConditions(.init(base: .init(autoLaunch: rng.chance(0.8))))
            default:
                let status: BackgroundRefreshStatus = pick([.available, .available, .denied])
                return .iosConditions(.init(base: .init(backgroundRefreshStatus: status)))
            }
        case 78..<85: return .terminate(.system)
        case 85..<89: return .terminate(.forceQuit)
        case 89..<92: return .openApp
        // (Tauri's load path, issue 22: a new webview, or an app with multiple scenes.)
        case 92..<94: return rng.chance(0.6) ? .webviewCreated : .policy(.init(multipleScenes: true))
        default:
            switch rng.below(8) {
            case 0:
                return .policy(
                    .init(
                        refreshDelayMaxSecs: 0, processingDelayMaxSecs: 0, refreshEarlyExpiryChance: 0))
            case 1: return .policy(.init(refreshEarlyExpiryChance: 1))
            case 2: return .policy(.init(watchdogGraceSecs: pick([0, 1, 5])))
            case 3: return .policy(.init(processingBudgetSecs: pick([10, 60, 600])))
            // (Issue 22: one task at a time, the seed's assumption, or two, or no limit again.)
            case 4: return .maxConcurrentTasks(pick([1, 1, 2, nil]))
            // (Issue 23: the app's states on, with their suspension delay and jetsam; the user leaving it.)
            case 5, 6: return appStatesPolicy()
            default: return .sendToBackground
            }
        }
    }

    /// The app's states and use (issue 23; both on under the device's defaults): the suspension
    /// delay (Apple's 5 s, none, or 30 s) and the jetsam's chance (none, the default 0.1, or
    /// every suspension); one time in five the model before them instead (both off, as under
    /// `--ios-defaults legacy`), and otherwise scheduling driven by use on or, one time in
    /// four, off.
    mutating func appStatesPolicy() -> SystemAction {
        var update = IOSPolicy.Update()
        let on = !rng.chance(0.2)
        update.appStates = .init(
            appStates: on, suspendDelaySecs: pick([5, 5, 0, 30]), jetsamChance: pick([0, 0, 0.1, 1]))
        update.usage = .init(usageScheduling: on && !rng.chance(0.25))
        return .policy(update)
    }

    mutating func action() -> SystemAction {
        switch rng.below(100) {
        case 0..<18: return .start
        case 18..<26: return .stop
        case 26..<38: return .launch(.refresh)
        case 38..<46: return .launch(.processing)
        case 46..<54: return .expire
        case 54..<94:
            let seconds = pick([0.000000001, 1, 5, 10, 27.999999999, 28, 30, 60, 100, 300, 600, 900, 901, 3600, 14_400])
            return .advance(VirtualTime(seconds: seconds)!)
        default:
            switch rng.below(4) {
            case 0: return .conditions(.init(autoLaunch: rng.chance(0.7)))
            case 1: return .conditions(.init(externalPower: rng.chance(0.5)))
            case 2: return .conditions(.init(networkConnected: rng.chance(0.6)))
            default:
                return .conditions(
                    .init(backgroundRefreshStatus: pick([.available, .available, .denied, .restricted])))
            }
        }
    }
}
