import HostProtocol
import PluginHost

/// The plugin level of the fuzzing loop: step sequences from ``StepGenerator``, the
/// ``ReferenceModel``'s prediction made while drawing them, run pipelined through a
/// ``PluginDriver`` after a `plugin/reset`.
struct PluginLevel: FuzzLevel {
    /// A case and what the model predicts for each of its steps.
    struct Case {
        let steps: [FuzzStep]
        let expected: [[JSONValue]]
    }

    /// A job's plugin, and the count that makes each reset's id unique.
    struct Runner {
        var driver: PluginDriver
        var resetID = 0
    }

    let configuration: PluginFuzzer.Configuration

    var seedSalt: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    func makeRunner(deadline: FuzzDeadline) throws(PluginFailure) -> Runner {
        Runner(driver: try start(deadline: deadline))
    }

    private func start(deadline: FuzzDeadline) throws(PluginFailure) -> PluginDriver {
        do {
            return try PluginDriver(
                plugin: configuration.plugin, timeout: configuration.replyTimeout, limits: configuration.limits,
                deadline: deadline)
        } catch {
            throw PluginFailure(error)
        }
    }

    func generate(seed: UInt64) -> Case {
        var rng = SplitMix64(seed: seed)
        let count = 1 + rng.below(configuration.maxSteps)
        var generator = StepGenerator(seed: rng.next(), batches: configuration.dispatch == .tauri)
        var model = ReferenceModel(profile: configuration.profile, dispatch: configuration.dispatch)
        var steps: [FuzzStep] = []
        var expected: [[JSONValue]] = []
        steps.reserveCapacity(count)
        expected.reserveCapacity(count)
        for _ in 0..<count {
            let step = generator.next(model: model)
            expected.append(model.apply(step.input))
            steps.append(step)
        }
        return Case(steps: steps, expected: expected)
    }

    func run(_ c: Case, on runner: inout Runner) -> PluginCase.Outcome {
        runner.resetID += 1
        return PluginCase(steps: c.steps, dispatch: configuration.dispatch).run(
            on: runner.driver, profile: configuration.profile, resetID: runner.resetID, expected: c.expected)
    }

    func steps(_ c: Case, _ outcome: PluginCase.Outcome) -> Int { c.steps.count }

    func signatures(_ outcome: PluginCase.Outcome) -> [String] { outcome.signatures }

    func failure(_ outcome: PluginCase.Outcome, on runner: Runner) -> PluginFailure? {
        outcome.error.map { PluginFailure($0) }
    }

    /// The plugin no longer matches the model: start both afresh.
    func recover(_ runner: inout Runner, after outcome: PluginCase.Outcome) throws(PluginFailure) {
        runner.driver.close()
        runner.driver = try start(deadline: runner.driver.deadline)
    }

    func shrink(
        _ c: Case, signature: String, caseSeed: UInt64, on runner: inout Runner, stop: @escaping @Sendable () -> Bool
    ) throws(PluginFailure) -> PluginFuzzer.Finding {
        do {
            let result = try PluginFuzzer.shrink(
                c.steps, signature: signature, caseSeed: caseSeed, profile: configuration.profile,
                plugin: configuration.plugin, driver: runner.driver, resetID: runner.resetID,
                dispatch: configuration.dispatch, stop: stop)
            runner.driver = result.driver
            runner.resetID = result.resetID
            return result.finding
        } catch {
            throw PluginFailure(error, startedBefore: true)
        }
    }

    func close(_ runner: Runner) { runner.driver.close() }
}
