/// What a soak is given and what it reports.
extension SoakRunner {
    package struct Settings: Sendable {
        package var plugin: String
        package var pluginArguments: [String] = []
        package var invokes = 1_000_000
        package var fuzzCases = 100_000
        package var rounds = 10
        package var warmUpRounds = 2
        package var window = 64
        package var seed: UInt64 = 1
        package var growthLimitKB = 1024
        package var faultTrials = 20
        package var faultBudgetMs = 100.0
        /// The longest the soak waits for any one answer (the first, a barrier, the oldest
        /// invoke in flight): past it the plugin is stopped and the soak fails as a
        /// transport failure (``Report/pluginFailure``).
        package var timeout: Duration = .seconds(60)

        package init(plugin: String) { self.plugin = plugin }
    }

    /// One memory sample, taken after a round.
    struct Sample: Sendable {
        let round: Int
        let invokes: Int
        let requests: Int
        let fuzzCases: Int
        let seconds: Double
        let plugin: SoakMemory
        let host: SoakMemory
        let hostPending: Int
    }

    /// What the fault trials measured, per kind.
    struct FaultFigures: Sendable {
        let kind: FaultLatency.Kind
        let noticed: Millis
        let reaped: Millis
        let failures: [String]
    }

    /// Why a plugin could not be soaked.
    package struct PluginFailure: Sendable, Equatable {
        /// The two kinds, each with its exit status in `plugin-host soak`.
        package enum Kind: String, Sendable {
            /// It ended before answering its first request (exit 2).
            case didNotStart
            /// It broke the transport (exit 3).
            case brokeTransport
        }

        package let kind: Kind
        package let detail: String
    }

    package struct Report: Sendable {
        var samples: [Sample] = []
        var invokeMismatches = 0
        var firstMismatches: [String] = []
        var fuzzViolations = 0
        var firstViolations: [String] = []
        var hostPendingAtEnd = -1
        var pluginPendingAtEnd = "unknown"
        var leakedPluginIDs = -1
        var probedIDs = 0
        var faults: [FaultFigures] = []
        var error: String?
        /// The plugin could not be judged: it did not start, or it broke the transport
        /// (silence past the timeout, flooding, a second answer, an unknown id, a frame
        /// that is not JSON-RPC, an exit mid-run). Not a finding of its rules.
        package var pluginFailure: PluginFailure?
        /// Lines the plugin wrote on stderr (not shown).
        var stderrLines = 0

        /// The plugin's resident-memory growth after the warm-up, KiB.
        func growth(warmUpRounds: Int) -> Int { growth(warmUpRounds, \.plugin.rss) }

        /// The host's resident-memory growth after the warm-up, KiB.
        func hostGrowth(warmUpRounds: Int) -> Int { growth(warmUpRounds, \.host.rss) }

        private func growth(_ warmUpRounds: Int, _ figure: KeyPath<Sample, Int>) -> Int {
            guard samples.count > warmUpRounds, warmUpRounds > 0 else { return 0 }
            let baseline = samples[warmUpRounds - 1][keyPath: figure]
            return max(0, (samples[warmUpRounds...].map { $0[keyPath: figure] }.max() ?? baseline) - baseline)
        }
    }
}
