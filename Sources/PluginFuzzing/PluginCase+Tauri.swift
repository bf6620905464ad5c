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
        let split: (actual: [[JSONValue]], taken: [[DispatchQueueName]], states: [JSONValue?])
        do {
            let frames = try driver.runRaw(encoded: PluginDriver.encode(script))
            split = try self.split(PluginCase.afterReset(frames, resetID: resetID), resetID: resetID)
        } catch {
            return failed(error, expected: [])
        }
        let (actual, taken, states) = split
        let check = InterleavingCheck(profile: profile).check(steps, actual: actual, states: states)
        return Outcome(
            expected: check.expected, actual: actual, mismatch: check.mismatch?.mismatch,
            failingStep: check.mismatch?.step, error: nil, stepMethods: methods, taken: taken,
            violations: InterleavingCheck.violations(actual), unpredictableFrom: check.unpredictableFrom)
    }

    /// The frames of each step (between its markers; the reset's replies are already
    /// dropped), the queues taken at each batch's decisions, and the `plugin/state` reply
    /// after each batch. A frame that is not JSON is junk; an answer to an id never sent,
    /// or one too many, breaks the transport (``answerProblem(_:sent:)``).
    private func split(
        _ frames: ArraySlice<[UInt8]>, resetID: Int
    ) throws(PluginDriver.DriverError) -> ([[JSONValue]], [[DispatchQueueName]], [JSONValue?]) {
        var actual: [[JSONValue]] = Array(repeating: [], count: steps.count)
        var taken: [[DispatchQueueName]] = Array(repeating: [], count: steps.count)
        var states: [JSONValue?] = Array(repeating: nil, count: steps.count)
        let schedule = Array(#"{"id":"~schedule-"#.utf8)
        let state = Array(#"{"id":"~after-"#.utf8)
        let marker = Array(#"{"id":"~step-"#.utf8)
        var k = 0
        var all: [JSONValue] = [Self.resetAnswer(resetID)]
        for frame in frames {
            if frame.starts(with: schedule) { continue }
            guard let value = PluginDriver.parsed(frame) else {
                throw .junk("a line that is not JSON: \(PluginDriver.excerpt(frame))")
            }
            all.append(value)
            if frame.starts(with: state) {
                if k < steps.count { states[k] = value }
            } else if frame.starts(with: marker) {
                if k < steps.count, steps[k].members != nil {
                    taken[k] = (try? value["result"].map(PluginDispatchSchedule.Result.init(json:)))??.taken ?? []
                }
                k += 1
            } else if k < steps.count {
                actual[k].append(value)
            }
        }
        if let broken = Self.answerProblem(all, sent: scriptIDs(resetID: resetID)) { throw broken }
        return (actual, taken, states)
    }

    /// The steps with each batch's schedule replaced by what the plugin took in `outcome`,
    /// without its trailing `ipc` choices: replayed, they run the same way (past a
    /// schedule's end the padding is `ipc` anyway).
    public func frozen(_ outcome: Outcome) -> [FuzzStep] {
        steps.enumerated().map { k, step in
            guard step.members != nil, k < outcome.taken.count else { return step }
            var s = step
            s.schedule = Self.trimmed(outcome.taken[k])
            return s
        }
    }

    /// A schedule without its trailing `ipc` choices (past its end every choice is `ipc`):
    /// how traces write it and how replay compares what the plugin took.
    public static func trimmed(_ schedule: [DispatchQueueName]) -> [DispatchQueueName] {
        var s = schedule
        while s.last == .ipc { s.removeLast() }
        return s
    }
}
