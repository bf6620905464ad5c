import HostProtocol
import Testing

@testable import PluginFuzzing

/// Swarm testing (`SystemCaseGenerator+Swarm.swift`): a swarm case keeps `start`, `advance`
/// and a random part of the other kinds, and draws only those (bar the rare case where 50
/// redraws all miss); the same seed gives the same case; the kinds cover the alphabet.
@Suite("system fuzzer: swarm testing")
struct SwarmGeneratorTests {
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func aSwarmCaseDrawsItsKindsOnly(_ ios: Bool, _ tauri: Bool) {
        var keptSomeLeftOut = false
        for seed in UInt64(1)...200 {
            var g = SystemCaseGenerator(seed: seed)
            let kinds = g.swarmKinds()
            #expect(kinds.contains(.start) && kinds.contains(.advance))
            keptSomeLeftOut = keptSomeLeftOut || kinds.count < SystemCaseGenerator.ActionKind.allCases.count
            let actions = g.swarmActions(max: 30, ios: ios, tauri: tauri, kinds: kinds)
            let outside = actions.filter { !kinds.contains(SystemCaseGenerator.ActionKind($0)) }
            #expect(outside.count <= 1, "seed \(seed): \(outside)")
            var again = SystemCaseGenerator(seed: seed)
            let sameKinds = again.swarmKinds()
            #expect(again.swarmActions(max: 30, ios: ios, tauri: tauri, kinds: sameKinds) == actions)
        }
        #expect(keptSomeLeftOut)
    }

    @Test func everyKindIsDrawnAcrossCases() {
        var seen: Set<SystemCaseGenerator.ActionKind> = []
        for seed in UInt64(1)...300 {
            var g = SystemCaseGenerator(seed: seed)
            let kinds = g.swarmKinds()
            for action in g.swarmActions(max: 30, ios: true, tauri: true, kinds: kinds) {
                seen.insert(SystemCaseGenerator.ActionKind(action))
            }
        }
        #expect(seen == Set(SystemCaseGenerator.ActionKind.allCases))
    }
}
