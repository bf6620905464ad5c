import HostProtocol

/// Running a case under `--dispatch tauri`.
///
/// Each batch step is preceded by `plugin/dispatchSchedule {choices}` (its schedule, then
/// ``ipcPadding`` × `ipc`, so that no decision is left to the plugin's PRNG) and followed by
/// `plugin/state` (the state it left, for the checker) and `plugin/dispatchSchedule {}`,
/// whose `taken` says what the plugin chose; every other step is followed by a marker
/// (`os/pendingTaskRequests`, which changes nothing). A lone request runs alone under
/// `tauri`, so these requests do not interleave with anything, and the frames between two
/// markers are exactly one step's: the checker (``InterleavingCheck``) needs that, since under
/// `seed` it cannot know how many frames a racing batch writes.
extension PluginCase {
    /// `ipc` choices installed after a batch's schedule.
    static let ipcPadding = 256

    func runTauri(on driver: PluginDriver, profile: Profile, resetID: Int) -> Outcome {
        let methods = steps.map(\.method)
        var script: [FuzzStep] = [.request(.string("~reset-\(resetID)"), PluginReset.name)]
        for (k, step) in steps.enumerated() {
            if step.members != nil {
                let choices = step.schedule + Array(repeating: .ipc, count: Self.ipcPadding)
                let params = PluginDispatchSchedule.Params(choices: choices).json
                script.append(.request(.string("~schedule-\(k)"), PluginDispatchSchedule.name, params))
                script.append(step)
                script.append(.request(.string("~after-\(k)"), PluginStateMethod.name))
                script.append(.request(.string("~step-\(k)"), PluginDispatchSchedule.name, .object([:])))
            } else {
                script.append(step)
                script.append(.request(.string("~step-\(k)"), OSPendingTaskRequests.name))
            }
        }
        let frames: [[UInt8]]
        do {
            frames = try driver.runRaw(encoded: PluginDriver.encode(script))
        } catch {
            return Outcome(
                expected: [], actual: [], mismatch: nil, failingStep: nil, error: error, stepMethods: methods)
        }
        let (actual, taken, states) = split(frames, resetID: resetID)
        let check = InterleavingCheck(profile: profile).check(steps, actual: actual, states: states)
        return Outcome(
            expected: check.expected, actual: actual, mismatch: check.mismatch?.mismatch,
            failingStep: check.mismatch?.step, error: nil, stepMethods: methods, taken: taken,
            violations: InterleavingCheck.violations(actual), unpredictableFrom: check.unpredictableFrom)
    }

    /// The frames of each step (between its markers, the reset's replies dropped), the
    /// queues taken at each batch's decisions, and the `plugin/state` reply after each batch.
    private func split(
        _ frames: [[UInt8]], resetID: Int
    ) -> ([[JSONValue]], [[DispatchQueueName]], [JSONValue?]) {
        var actual: [[JSONValue]] = Array(repeating: [], count: steps.count)
        var taken: [[DispatchQueueName]] = Array(repeating: [], count: steps.count)
        var states: [JSONValue?] = Array(repeating: nil, count: steps.count)
        let reset = Array(#"{"id":"~reset-\#(resetID)""#.utf8)
        let schedule = Array(#"{"id":"~schedule-"#.utf8)
        let state = Array(#"{"id":"~after-"#.utf8)
        let marker = Array(#"{"id":"~step-"#.utf8)
        var k = -1
        for frame in frames {
            if frame.starts(with: reset) {
                k = 0
            } else if frame.starts(with: schedule) {
                continue
            } else if frame.starts(with: state) {
                if k >= 0, k < steps.count { states[k] = PluginDriver.parse(frame) }
            } else if frame.starts(with: marker) {
                if k >= 0, k < steps.count, steps[k].members != nil {
                    let result = PluginDriver.parse(frame)["result"]
                    taken[k] = (try? result.map(PluginDispatchSchedule.Result.init(json:)))??.taken ?? []
                }
                k += 1
            } else if k >= 0, k < steps.count {
                actual[k].append(PluginDriver.parse(frame))
            }
        }
        return (actual, taken, states)
    }

    /// The steps with each batch's schedule replaced by what the plugin took in `outcome`:
    /// replayed, they run the same way (the padding is `ipc` either way).
    public func frozen(_ outcome: Outcome) -> [FuzzStep] {
        steps.enumerated().map { k, step in
            guard step.members != nil, k < outcome.taken.count else { return step }
            var s = step
            s.schedule = outcome.taken[k]
            return s
        }
    }
}
