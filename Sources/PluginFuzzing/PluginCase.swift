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

        /// Every distinct failure: the plugin's failure; or the `os/violation` rules it reported
        /// (`--dispatch tauri`), each once, in order; or else the first difference from the model.
        public var signatures: [String] {
            if let error { return ["plugin failure: \(error)"] }
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
    /// everything agrees.
    public func run(
        on driver: PluginDriver, profile: Profile, resetID: Int, expected given: [[JSONValue]]? = nil,
        keepFrames: Bool = false
    ) -> Outcome {
        if dispatch == .tauri { return runTauri(on: driver, profile: profile, resetID: resetID) }
        let expected = given ?? predict(profile: profile)
        let resetKey = RequestID.string("~reset-\(resetID)")
        let reset = FuzzStep.request(resetKey, PluginReset.name)
        let frames: [[UInt8]]
        do {
            frames = try driver.runRaw(encoded: PluginDriver.encode([reset] + steps))
        } catch {
            return Outcome(
                expected: expected, actual: [], mismatch: nil, failingStep: nil, error: error,
                stepMethods: steps.map(\.method))
        }
        // Drop the reset's replies (a rejection of a pending wait, then its result).
        let resetPrefix = Array(#"{"id":"~reset-\#(resetID)""#.utf8)
        let resetEnd = frames.firstIndex { $0.starts(with: resetPrefix) } ?? -1
        let body = frames[(resetEnd + 1)...]
        let flat = expected.flatMap { $0 }
        guard let mismatch = PluginCase.firstMismatch(expected: flat, actual: body) else {
            let actual = keepFrames ? attribute(body.map(PluginDriver.parse), expected: expected) : []
            return Outcome(
                expected: expected, actual: actual, mismatch: nil, failingStep: nil, error: nil,
                stepMethods: steps.map(\.method))
        }
        var failingStep = 0
        var count = 0
        for (i, e) in expected.enumerated() {
            failingStep = i
            count += e.count
            if count > mismatch.index { break }
        }
        return Outcome(
            expected: expected, actual: attribute(body.map(PluginDriver.parse), expected: expected), mismatch: mismatch,
            failingStep: failingStep, error: nil, stepMethods: steps.map(\.method))
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
                        ? FrameComparison.normalize(PluginDriver.parse(actual[actual.startIndex + i])) : nil)
            }
            encoded.removeAll(keepingCapacity: true)
            JSONWriter.write(expected[i], to: &encoded)
            let raw = actual[actual.startIndex + i]
            if encoded == raw { continue }
            let e = FrameComparison.normalize(expected[i])
            let a = FrameComparison.normalize(PluginDriver.parse(raw))
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
