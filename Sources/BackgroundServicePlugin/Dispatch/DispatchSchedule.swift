import HostProtocol

/// Which queue runs at each interleaving decision of `--dispatch tauri`: the choices a client
/// installed with `plugin/dispatchSchedule` first, in order, then a small seeded PRNG
/// (SplitMix64 seeded with `--dispatch-seed`), so that the plugin's output stays a pure
/// function of its input and flags.
struct DispatchSchedule {
    /// `--dispatch-seed`: where the PRNG starts (again after `plugin/reset`).
    let initialSeed: UInt64
    private var rng: SplitMix64
    private var choices: [DispatchQueueName] = []
    private var nextChoice = 0
    /// Decisions made since the last report.
    private(set) var decisions = 0
    /// The queue chosen at each of them (the first `takenLimit`).
    private(set) var taken: [DispatchQueueName] = []
    /// What the next off-thread `Timer.invalidate()`s do (past them: `removed`).
    private var invalidations: [TimerInvalidation] = []
    private var nextInvalidation = 0
    /// What each off-thread invalidation since the last report did (the first `takenLimit`),
    /// kept only while installed outcomes exist.
    private var invalidationsTaken: [TimerInvalidation] = []

    init(seed: UInt64) {
        initialSeed = seed
        rng = SplitMix64(seed: seed)
    }

    /// Decides which queue runs its next step.
    mutating func choose() -> DispatchQueueName {
        let queue: DispatchQueueName
        if nextChoice < choices.count {
            queue = choices[nextChoice]
            nextChoice += 1
        } else {
            queue = rng.next() & 1 == 0 ? .ipc : .main
        }
        decisions += 1
        if taken.count < PluginDispatchSchedule.Result.takenLimit { taken.append(queue) }
        return queue
    }

    /// Decides whether a `Timer.invalidate()` sent off the timer's thread removes it: the next
    /// installed outcome, else `removed` (never the PRNG, so schedules recorded before this
    /// choice existed replay as they did).
    mutating func chooseInvalidation() -> TimerInvalidation {
        var outcome = TimerInvalidation.removed
        if nextInvalidation < invalidations.count {
            outcome = invalidations[nextInvalidation]
            nextInvalidation += 1
        }
        // Reported only to a schedule that installed outcomes: other reports stay as they were.
        if !invalidations.isEmpty, invalidationsTaken.count < PluginDispatchSchedule.Result.takenLimit {
            invalidationsTaken.append(outcome)
        }
        return outcome
    }

    /// `plugin/dispatchSchedule`: reports what happened since the last report, then installs
    /// the new choices (and reseeds the PRNG when asked).
    mutating func install(
        _ params: PluginDispatchSchedule.Params, mode: DispatchMode
    ) -> PluginDispatchSchedule.Result {
        let result = PluginDispatchSchedule.Result(
            dispatch: mode, decisions: decisions, taken: taken, unused: choices.count - nextChoice,
            invalidations: invalidationsTaken.isEmpty ? nil : invalidationsTaken)
        choices = params.choices
        nextChoice = 0
        decisions = 0
        taken = []
        invalidations = params.invalidations
        nextInvalidation = 0
        invalidationsTaken = []
        if let seed = params.seed { rng = SplitMix64(seed: UInt64(seed)) }
        return result
    }

    /// `plugin/reset`: as at start.
    mutating func reset() {
        self = DispatchSchedule(seed: initialSeed)
    }
}
