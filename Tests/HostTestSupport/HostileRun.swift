import Foundation
import Synchronization

/// One run of `plugin-host` against `hostile-plugin`, measured from outside: exit
/// status, wall time, the host's peak resident memory, what it printed (the first and
/// last 16 KiB of each stream, and the byte counts) and the processes of the run left
/// alive once the host has exited. For the hostile-peer suite (`HostilePeerTests`,
/// `scripts/hostile-peers.sh`).
///
/// Every process of the run carries a tag in its environment (``TaggedProcesses``), which
/// is how leftovers are found: the host, the hostile proxy, the real plugin behind it and
/// anything they started.
package struct HostileRun: Sendable {
    /// What was seen.
    package struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended the host.
        package var status: Int32
        /// Wall time from spawn to exit.
        package var seconds: Double
        /// The host's peak resident memory (`ru_maxrss`), KiB.
        package var peakKB: Int
        /// The start and end of stdout and stderr, and their sizes.
        package var stdout: ProgramRun.CapturedStream
        package var stderr: ProgramRun.CapturedStream
        /// Processes of the run still alive after the host exited (killed after counting).
        package var leftovers: [Int32]
        /// Whether the host had to be killed at the hang limit.
        package var hung: Bool
    }

    /// Runs `plugin-host ARGUMENTS` with `HOSTILE_MODE=mode` (and `environment`) and its
    /// stdin empty; kills it at `hangLimit`.
    package static func run(
        _ arguments: [String], mode: String, environment: [String: String] = [:], hangLimit: Duration = .seconds(120)
    ) -> Outcome {
        let tag = TaggedProcesses()
        var env = ProcessInfo.processInfo.environment
        env["HOSTILE_MODE"] = mode
        for (k, v) in tag.environment(environment) { env[k] = v }
        let run = ProgramRun.run(Binaries.host, arguments, environment: env, keep: 16 << 10, hangLimit: hangLimit)
        // A process outside the host's reach ends on its own once its input ends (the real
        // plugin behind the hostile proxy): each gets a moment to.
        let leftovers = tag.leftBehind(grace: .seconds(5)).compactMap { Int32($0.prefix { $0 != " " }) }
        for p in leftovers { kill(p, SIGKILL) }
        return Outcome(
            status: run.status, seconds: run.seconds, peakKB: run.peakKB, stdout: run.stdout, stderr: run.stderr,
            leftovers: leftovers, hung: run.hung)
    }
}
