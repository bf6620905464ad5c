import HostProtocol
import PluginHost

/// Draws random system cases: services with random timings and outcomes, a
/// random config, a random job schedule, and random app, user and OS actions.
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
        return SystemScenario(
            runs: runs, safetyTimeout: pick([28, 28, 10, 45]), processingSafetyTimeout: pick([0, 0, 30]),
            listenerTimeout: pick([14_400, 14_400, 100, 600]), earliestMinutes: pick([15, 15, 1, 0.5]),
            scheduleSeed: rng.chance(0.5) ? nil : rng.next())
    }

    mutating func actions(max: Int) -> [SystemAction] {
        (0..<(3 + rng.below(Swift.max(1, max - 2)))).map { _ in action() }
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
            default: return .conditions(.init(backgroundRefreshStatus: pick([.available, .available, .denied, .restricted])))
            }
        }
    }
}
