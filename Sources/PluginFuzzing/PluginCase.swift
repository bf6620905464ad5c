import HostProtocol

/// One plugin-level case: steps run from a freshly reset plugin, every reply
/// compared with the reference model's prediction.
public struct PluginCase: Sendable {
    /// The steps after the reset.
    public var steps: [FuzzStep]
    /// The plugin's `--dispatch`: under `tauri` batches run under their schedules and are
    /// checked as `PluginCase+Tauri.swift` says.
    public var dispatch: DispatchMode

    /// Creates a case.
    public init(steps: [FuzzStep], dispatch: DispatchMode = .serial) {
        self.steps = steps
        self.dispatch = dispatch
    }

    /// What the model predicts, step by step.
    public func predict(profile: Profile) -> [[JSONValue]] {
        var model = ReferenceModel(profile: profile, dispatch: dispatch)
        return steps.map { model.apply($0.input) }
    }

    /// The outcome of running a case.
    public struct Outcome: Sendable {
        /// Frames expected per step.
        public let expected: [[JSONValue]]
        /// Frames received, attributed to steps.
        public let actual: [[JSONValue]]
        /// The first difference, nil when the plugin agrees with the model.
        public let mismatch: FrameComparison.Mismatch?
        /// The step whose replies differ first.
        public let failingStep: Int?
        /// The driver error, when the plugin died or hung.
        public let error: PluginDriver.DriverError?

        /// A short string that identifies the kind of failure, for grouping and shrinking.
        public var signature: String? { signatures.first }

        /// Every distinct failure: the `os/violation` rules the plugin reported (`--dispatch
        /// tauri`), each once, in order; or else the first difference from the model. None
        /// when the plugin failed (``error``): that is no finding, the case could not be judged.
        public var signatures: [String] {
            if error != nil { return [] }
            if !violations.isEmpty { return violations.map(\.signature) }
            guard let mismatch, let failingStep else { return [] }
            return ["\(stepMethods[failingStep]): \(mismatch.signature)"]
        }

        let stepMethods: [String]
        /// `--dispatch tauri`: the queues the plugin took at each batch's decisions (empty for
        /// other steps).
        public var taken: [[DispatchQueueName]] = []
        /// `--dispatch tauri`: each distinct `os/violation` rule the plugin reported.
        public var violations: [RaceViolation] = []
        /// `--dispatch tauri`, `seed`: the batch whose output matches no order of its members,
        /// from which on the model no longer predicts the frames (only invariants are checked).
        public var unpredictableFrom: Int?
    }

    /// Runs the case: a `plugin/reset` (whose own replies are not compared), the
    /// steps, a barrier. `expected` may carry the model's prediction when it was
    /// made while generating the steps.
    /// `keepFrames` keeps the received frames (attributed to steps) even when
    /// everything agrees. The plugin failing (``PluginDriver/DriverError``: it ended, hung,
    /// flooded, wrote junk or wrote outside a step) is the outcome's ``Outcome/error``.
    public func run(
        on driver: PluginDriver, profile: Profile, resetID: Int, expected given: [[JSONValue]]? = nil,
        keepFrames: Bool = false
    ) -> Outcome {
        if dispatch == .tauri { return runTauri(on: driver, profile: profile, resetID: resetID) }
        let expected = given ?? predict(profile: profile)
        let resetKey = RequestID.string("~reset-\(resetID)")
        let reset = FuzzStep.request(resetKey, PluginReset.name)
        let body: ArraySlice<[UInt8]>
        do {
            let frames = try driver.runRaw(encoded: PluginDriver.encode([reset] + steps))
            body = try Self.afterReset(frames, resetID: resetID)
        } catch {
            return failed(error, expected: expected)
        }
        let flat = expected.flatMap { $0 }
        let mismatch = PluginCase.firstMismatch(expected: flat, actual: body)
        guard mismatch != nil || keepFrames else {
            return Outcome(
                expected: expected, actual: [], mismatch: nil, failingStep: nil, error: nil,
                stepMethods: steps.map(\.method))
        }
        let parsed: [JSONValue]
        do {
            parsed = try PluginDriver.parseAll(body)
        } catch {
            return failed(error, expected: expected)
        }
        if let broken = Self.answerProblem([Self.resetAnswer(resetID)] + parsed, sent: scriptIDs(resetID: resetID)) {
            return failed(broken, expected: expected)
        }
        guard let mismatch else {
            return Outcome(
                expected: expected, actual: attribute(parsed, expected: expected), mismatch: nil, failingStep: nil,
                error: nil, stepMethods: steps.map(\.method))
        }
        var failingStep = 0
        var count = 0
        for (i, e) in expected.enumerated() {
            failingStep = i
            count += e.count
            if count > mismatch.index { break }
        }
        return Outcome(
            expected: expected, actual: attribute(parsed, expected: expected), mismatch: mismatch,
            failingStep: failingStep, error: nil, stepMethods: steps.map(\.method))
    }

    /// The case could not be run: the plugin failed.
    func failed(_ error: PluginDriver.DriverError, expected: [[JSONValue]]) -> Outcome {
        Outcome(
            expected: expected, actual: [], mismatch: nil, failingStep: nil, error: error,
            stepMethods: steps.map(\.method))
    }

    /// The answer to the case's `plugin/reset` as ``answerProblem(_:sent:)`` counts it.
    static func resetAnswer(_ resetID: Int) -> JSONValue {
        .object(["id": .string("~reset-\(resetID)"), "result": .null])
    }

    /// The frames after the answer to the case's `plugin/reset`. Before it the plugin may
    /// only write the rejection of a `waitForCancel` left pending by the case before (an
    /// error response, alone or in a batch's reply); anything else is output outside a
    /// step. No answer, or an error, means the plugin did not reset.
    static func afterReset(_ frames: [[UInt8]], resetID: Int) throws(PluginDriver.DriverError) -> ArraySlice<[UInt8]> {
        let prefix = Array(#"{"id":"~reset-\#(resetID)""#.utf8)
        guard let end = frames.firstIndex(where: { $0.starts(with: prefix) }) else {
            throw .noReset("no answer to it among the case's \(frames.count) frames")
        }
        for frame in frames[..<end] {
            guard let value = PluginDriver.parsed(frame) else {
                throw .junk("a line that is not JSON: \(PluginDriver.excerpt(frame))")
            }
            let isRejection = value["method"] == nil && value["id"] != nil && value["error"] != nil
            let isBatchReply = value.arrayValue.map { !$0.isEmpty && $0.allSatisfy { $0["id"] != nil } } ?? false
            if !isRejection && !isBatchReply {
                throw .outsideStep("before the answer to the case's plugin/reset: \(PluginDriver.excerpt(frame))")
            }
        }
        if PluginDriver.parsed(frames[end])?["error"] != nil {
            throw .noReset("it answered with an error: \(PluginDriver.excerpt(frames[end]))")
        }
        return frames[(end + 1)...]
    }

    /// Compares bytes first; a frame whose bytes differ is parsed and compared
    /// without what the contract does not fix (error messages, extension members).
    static func firstMismatch(expected: [JSONValue], actual: ArraySlice<[UInt8]>) -> FrameComparison.Mismatch? {
        var encoded: [UInt8] = []
        for i in 0..<max(expected.count, actual.count) {
            guard i < expected.count, i < actual.count else {
                return FrameComparison.Mismatch(
                    index: i, expected: i < expected.count ? FrameComparison.normalize(expected[i]) : nil,
                    actual: i < actual.count
                        ? FrameComparison.normalize(PluginDriver.parsed(actual[actual.startIndex + i]) ?? .null) : nil)
            }
            encoded.removeAll(keepingCapacity: true)
            JSONWriter.write(expected[i], to: &encoded)
            let raw = actual[actual.startIndex + i]
            if encoded == raw { continue }
            let e = FrameComparison.normalize(expected[i])
            let a = FrameComparison.normalize(PluginDriver.parsed(raw) ?? .null)
            if e != a { return FrameComparison.Mismatch(index: i, expected: e, actual: a) }
        }
        return nil
    }

    /// Splits the received frames among the steps: a step that the model says is
    /// answered at once takes frames up to its own answer.
    private func attribute(_ frames: [JSONValue], expected: [[JSONValue]]) -> [[JSONValue]] {
        var out: [[JSONValue]] = Array(repeating: [], count: steps.count)
        var i = 0
        for (k, step) in steps.enumerated() {
            guard let id = step.id, expected[k].contains(where: { $0["id"] == id.json && $0["method"] == nil }) else {
                continue
            }
            while i < frames.count {
                let f = frames[i]
                out[k].append(f)
                i += 1
                if f["id"] == id.json, f["method"] == nil { break }
            }
        }
        if i < frames.count, !steps.isEmpty { out[steps.count - 1] += frames[i...] }
        return out
    }
}
