import HostProtocol

/// One `os/violation` the plugin reported: a cross-queue race it detected.
public struct RaceViolation: Sendable, Hashable {
    /// The step whose frames carry it.
    public let step: Int
    /// `exactly-once` (a second `setTaskCompleted`), `invoke.answered-once` (a second answer),
    /// `invoke.never-answered` (a stored `waitForCancel` let go of unanswered).
    public let rule: String
    /// The plugin's words: which invoke, which statement, which queue.
    public let detail: String

    /// The finding's signature.
    public var signature: String { "os/violation \(rule)" }
}

/// Checks a `--dispatch tauri` case, step by step, against the reference model.
///
/// - `strict`: every invoke's body hops onto the main queue, so a batch runs its `os/`
///   controls, then its invokes, whatever the schedule: the model predicts every frame
///   exactly (``ReferenceModel/defaultOrder(_:)``), reply array in request order.
/// - `seed`: the statements of a batch's members interleave, and the model, which states
///   the contract one whole method at a time, cannot predict an interleaving. It follows the
///   plugin as far as it can: a batch passes when its frames are those of one order of its
///   whole members (each queue keeping its order, ``ReferenceModel/interleavings(_:)``), and
///   the model goes on from every such order's state at once; the `plugin/state` the batch
///   left must match too (an interleaving can write one order's frames and leave another
///   state: a task launched between `completeBgTask`'s check and its `cleanup()` is
///   forgotten). A batch that matches no such
///   order interleaved for real; from it on only the invariants hold the plugin to account:
///   no `os/violation` (``violations(_:)``), the plugin's own report of a race.
struct InterleavingCheck {
    let profile: Profile

    /// The model's frames per step (empty where it could not predict), the first difference,
    /// and the step from which it could not follow.
    struct Result {
        var expected: [[JSONValue]] = []
        var mismatch: (step: Int, mismatch: FrameComparison.Mismatch)?
        var unpredictableFrom: Int?
    }

    /// Most model states followed at once (orders that write the same frames).
    static let maxCandidates = 24

    /// `states`: the plugin's `plugin/state` reply after each batch (nil for other steps).
    func check(_ steps: [FuzzStep], actual: [[JSONValue]], states: [JSONValue?]) -> Result {
        var result = Result()
        var candidates = [ReferenceModel(profile: profile, dispatch: .tauri)]
        for (k, step) in steps.enumerated() {
            guard result.unpredictableFrom == nil, result.mismatch == nil else {
                result.expected.append([])
                continue
            }
            let frames = k < actual.count ? actual[k] : []
            let probe = k < states.count ? states[k] : nil
            var next: [ReferenceModel] = []
            var seen: Set<ModelState> = []
            var matched: [JSONValue]?
            var closest: (frames: [JSONValue], mismatch: FrameComparison.Mismatch)?
            for model in candidates {
                for order in orders(step) {
                    var m = model
                    let expected = order.map { m.apply(batch: step.members ?? [], order: $0) } ?? m.apply(step.input)
                    if let difference = FrameComparison.firstMismatch(expected: expected, actual: frames) {
                        closest = closest ?? (expected, difference)
                        continue
                    }
                    let id = probe?["id"].flatMap(RequestID.init(json:)) ?? .null
                    if let probe,
                        let difference = FrameComparison.firstMismatch(
                            expected: [m.responseJSON(id, .success(m.snapshot()))], actual: [probe])
                    {
                        closest = closest ?? (expected, difference)
                        continue
                    }
                    matched = matched ?? expected
                    if next.count < Self.maxCandidates, seen.insert(m.state).inserted { next.append(m) }
                }
            }
            if next.isEmpty, step.members != nil, profile == .seed {
                result.unpredictableFrom = k
                result.expected.append([])
                continue
            }
            result.expected.append(matched ?? closest?.frames ?? [])
            if next.isEmpty, let closest {
                result.mismatch = (k, closest.mismatch)
                continue
            }
            candidates = next
        }
        return result
    }

    /// The orders to try for a step: every interleaving of a batch's members under `seed`,
    /// the model's own (`[nil]`: ``ReferenceModel/apply(_:)``) otherwise.
    private func orders(_ step: FuzzStep) -> [[Int]?] {
        guard profile == .seed, let members = step.members else { return [nil] }
        return ReferenceModel.interleavings(members)
    }

    /// Each distinct `os/violation` rule in the frames, with the step that first carries it.
    static func violations(_ actual: [[JSONValue]]) -> [RaceViolation] {
        var found: [RaceViolation] = []
        for (k, frames) in actual.enumerated() {
            for f in frames where f["method"]?.stringValue == ViolationEvent.name {
                guard let rule = f["params"]?["rule"]?.stringValue, !found.contains(where: { $0.rule == rule }) else {
                    continue
                }
                found.append(RaceViolation(step: k, rule: rule, detail: f["params"]?["detail"]?.stringValue ?? ""))
            }
        }
        return found
    }
}
