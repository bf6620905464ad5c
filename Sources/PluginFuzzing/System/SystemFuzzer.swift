import HostProtocol
import HostSimulation
import PluginHost
import RustSide

/// System-level fuzzing: the emulated Rust side with a sample service against
/// the plugin on one virtual clock, random actions, pools and race orders, the
/// part-D invariants checked after every step; each distinct violation shrunk
/// (``SystemShrinker``) and written as a trace. The loop is ``FuzzLoop``, shared with the plugin level;
/// each job's plugin serves all its cases and shrink attempts, reset between them.
public final class SystemFuzzer: Sendable {
    /// What to run.
    public struct Configuration: Sendable {
        /// How to start each job's plugin.
        public var plugin: PluginLauncher
        /// The Rust side's behaviour (`seed` or `strict`).
        public var behaviour: Profile
        /// The run's seed: the same seed gives the same cases.
        public var seed: UInt64
        /// Stop after this many cases (nil: use `seconds`).
        public var runs: Int?
        /// Stop after this many seconds of wall time.
        public var seconds: Double
        /// Longest case, in actions.
        public var maxSteps: Int
        /// Plugins and fuzzing threads in parallel.
        public var jobs: Int
        /// `ios`: the plugin runs under `--os ios` (the launcher's arguments say so), and cases
        /// draw from the ios alphabet and whether the app starts the service at launch.
        public var os: OSMode
        /// `tauri`: the plugin runs under `--dispatch tauri` (the launcher's arguments say so);
        /// cases add OS events at the instant of host invokes, sent as one batch.
        public var dispatch: DispatchMode
        /// How long one host call may wait for the plugin's answer before the run ends with
        /// the plugin failing (``SystemSimulation/Options/answerTimeout``; not a finding).
        public var answerTimeout: Duration
        /// Swarm testing: each case leaves out a random part of the action alphabet
        /// (`SystemCaseGenerator+Swarm.swift`); off, the cases are drawn as before.
        public var swarm = false
        /// Clock bias: half the time steps of a case go to the next deadline instead of by a drawn
        /// amount (`SystemCase+Deadline.swift`); off, the cases are drawn as before.
        public var clockBias = false
        /// Guided search: cases that reach a new abstract transition of the plugin's and the Rust
        /// side's states are kept, and a quarter of the later cases are made from them
        /// (`SystemCase+Coverage.swift`, ``FuzzCorpus``); off, the cases are drawn as before.
        public var guided = false

        /// A configuration.
        public init(
            plugin: PluginLauncher, behaviour: Profile, seed: UInt64, runs: Int?, seconds: Double, maxSteps: Int,
            jobs: Int, os: OSMode = .manual, dispatch: DispatchMode = .serial,
            answerTimeout: Duration = SystemSimulation.Options.defaultAnswerTimeout
        ) {
            self.answerTimeout = answerTimeout
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
        /// The invariant and cause (findings are grouped by it).
        public let signature: String
        /// The seed of the case that first showed it.
        public let caseSeed: UInt64
        /// The case's length before shrinking.
        public let originalSteps: Int
        /// The shrunk case (its races frozen).
        public let systemCase: SystemCase
        /// What the shrunk case gave: violations and timeline.
        public let outcome: SystemCase.Outcome
        /// Candidates tried while shrinking.
        public let shrinkAttempts: Int
        /// The plugin's `--dispatch` the finding was made under.
        public var dispatch: DispatchMode = .serial

        /// The shrunk case's length.
        public var shrunkSteps: Int { systemCase.actions.count }
    }

    /// What it runs.
    public let configuration: Configuration
    private let loop: FuzzLoop<SystemLevel>

    /// Creates a fuzzer; `progress` gets its counts as it runs.
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

    /// When each signature was first seen, shrunk and kept as a finding or not, in wall
    /// seconds from the run's start.
    public var firstSeen: [String: Double] { loop.firstSeen }

    /// The virtual time the cases played so far covered, in seconds.
    public var simulatedSeconds: Double { loop.simulatedSeconds }

    /// Cases kept by guided search so far (``Configuration/guided``), all jobs together; 0 without it.
    public var kept: Int { loop.kept }

    /// The case a seed stands for (without guided search, case `i` of a run is the case its seed stands for).
    public func generateCase(seed: UInt64) -> SystemCase { loop.level.generate(seed: seed) }

    /// Runs every job to its end (the time limit bounds the whole run, shrinking and a
    /// hung plugin included: ``FuzzDeadline``); returns one finding per signature. Throws
    /// when the plugin could not be started or failed (``findings`` then keeps what was
    /// found before).
    public func run() throws(PluginFailure) -> [Finding] { try loop.run() }

    /// The findings kept so far, one per signature.
    public var findings: [Finding] { loop.findings }
}
