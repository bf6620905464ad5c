import Foundation
import Synchronization

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
    /// Put before every stage's name: `round 2 of 3: ` (empty with one round).
    package var round = ""
    private let say: (String) -> Void

    /// Stages reported through `say` (a line each).
    package init(say: @escaping (String) -> Void) { self.say = say }

    /// Runs one stage: `bench: WHAT` before it, `bench:   took S s` after it.
    package func run<T, E: Error>(_ what: String, _ body: () throws(E) -> T) throws(E) -> T {
        current = round + what
        say("bench: \(current)")
        let start = ContinuousClock.now
        let result = try body()
        let took = ContinuousClock.now - start
        let seconds = took.seconds
        say(String(format: "bench:   took %.2f s", seconds))
        return result
    }
}

/// What the bench waits for now (the block under way), for the message of a failure
/// that is not a timeout (a timeout names it already).
package final class BenchWait: Sendable {
    private let label = Mutex("the first plugin to start")

    /// Records what is awaited.
    func set(_ what: String) { label.withLock { $0 = what } }

    /// What was awaited last.
    package var current: String { label.withLock { $0 } }
}
