import HostProtocol
import PluginHost

/// System-level fuzzing: the emulated Rust side with a sample service against
/// the plugin on one virtual clock, random actions, pools and race orders, the
/// part-D invariants checked after every step; each distinct violation shrunk
/// (``SystemShrinker``) and written as a trace. The loop is ``FuzzLoop``, shared with the plugin level;
/// each job's plugin serves all its cases and shrink attempts, reset between them.
public final class SystemFuzzer: Sendable {
    /// What to run.
    public struct Configuration: Sendable {
        public var plugin: PluginLauncher
        public var behaviour: HostBehaviour
        public var seed: UInt64
        public var runs: Int?
        public var seconds: Double
        public var maxSteps: Int
        public var jobs: Int
        /// `ios`: the plugin runs under `--os ios` (the launcher's arguments say so), and cases
        /// draw from the ios alphabet and whether the app starts the service at launch.
        public var os: OSMode
        /// `tauri`: the plugin runs under `--dispatch tauri` (the launcher's arguments say so);
        /// cases add OS events at the instant of host invokes, sent as one batch.
        public var dispatch: DispatchMode

        public init(
            plugin: PluginLauncher, behaviour: HostBehaviour, seed: UInt64, runs: Int?, seconds: Double, maxSteps: Int,
            jobs: Int, os: OSMode = .manual, dispatch: DispatchMode = .serial
        ) {
            self.os = os
            self.dispatch = dispatch
            self.plugin = plugin
            self.behaviour = behaviour
            self.seed = seed
            self.runs = runs
            self.seconds = seconds
            self.maxSteps = maxSteps
            self.jobs = jobs
        }
    }

    /// A distinct violation, shrunk.
    public struct Finding: FuzzFinding {
        public let signature: String
        public let caseSeed: UInt64
        public let originalSteps: Int
        public let systemCase: SystemCase
        public let outcome: SystemCase.Outcome
        public let shrinkAttempts: Int
        /// The plugin's `--dispatch` the finding was made under.
        public var dispatch: DispatchMode = .serial

        public var shrunkSteps: Int { systemCase.actions.count }
    }

    public let configuration: Configuration
    private let loop: FuzzLoop<SystemLevel>

    public init(configuration: Configuration, progress: FuzzProgress) {
        self.configuration = configuration
        let c = configuration
        let limits = FuzzLimits(seed: c.seed, runs: c.runs, seconds: c.seconds, jobs: c.jobs)
        loop = FuzzLoop(level: SystemLevel(configuration: c), limits: limits, progress: progress)
    }

    /// Cases and steps run so far.
    public var totals: (cases: Int, steps: Int) { loop.totals }

    /// When each finding was found and how long shrinking it took, by signature.
    public var timings: [String: FindingTiming] { loop.timings }

    /// The virtual time the cases played so far covered, in seconds.
    public var simulatedSeconds: Double { loop.simulatedSeconds }

    /// The case a seed stands for.
    public func generateCase(seed: UInt64) -> SystemCase { loop.level.generate(seed: seed) }

    /// Runs every job to its end; returns one finding per signature.
    public func run() -> [Finding] { loop.run() }
}
