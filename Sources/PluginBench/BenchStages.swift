import Foundation

/// The stages of a `plugin-host bench` run, as it goes: each says on stderr what it
/// measures before it starts and how long it took once done, and the current one names
/// what was being measured when the run fails.
///
/// ```swift
/// let stages = BenchStages { line in print(line) }
/// let startup = try stages.run("startup (5 starts)") { try runner.startup() }
/// ```
package final class BenchStages {
    /// The stage running (or the last one), in words.
    package private(set) var current = "starting"
    private let say: (String) -> Void

    /// Stages reported through `say` (a line each).
    package init(say: @escaping (String) -> Void) { self.say = say }

    /// Runs one stage: `bench: WHAT` before it, `bench:   took S s` after it.
    package func run<T, E: Error>(_ what: String, _ body: () throws(E) -> T) throws(E) -> T {
        current = what
        say("bench: \(what)")
        let start = ContinuousClock.now
        let result = try body()
        let took = ContinuousClock.now - start
        let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
        say(String(format: "bench:   took %.2f s", seconds))
        return result
    }
}
