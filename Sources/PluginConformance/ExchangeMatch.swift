import HostProtocol

/// Matches the frames one step received with the patterns it expects, in order.
///
/// Notifications whose method the contract does not name (not an event of the
/// OpenRPC document) are set aside first: a reader ignores them, so they can
/// neither satisfy nor break an expectation (except in a step that judges every
/// notification: before `initialize`, none of any method may come). Everything else is judged: each
/// frame must match the pattern at its place, and there must be as many frames as
/// patterns.
struct ExchangeMatch {
    /// The contract's event names.
    private static let events = Set(OpenRPCDocument.eventNames)

    /// The frames judged (ignored notifications removed).
    let judged: [JSONValue]
    /// How many notifications were set aside.
    let ignored: Int
    /// Why the step does not match, or nil when it does.
    let mismatch: String?

    /// Matches `frames` with `expected`; `amongOthers`: the expected frames must come in
    /// order, other frames may come around them; `judgesEveryNotification`: no
    /// notification is set aside (a step where none of any method may come).
    init(expected: [Pattern], frames: [JSONValue], amongOthers: Bool = false, judgesEveryNotification: Bool = false) {
        judged = judgesEveryNotification ? frames : frames.filter { !Self.isIgnored($0) }
        ignored = frames.count - judged.count
        if amongOthers {
            var next = 0
            for frame in judged where next < expected.count && expected[next].mismatch(with: frame) == nil { next += 1 }
            mismatch =
                next == expected.count
                ? nil : "no reply matches \(expected[next]) (expected among the replies, after the ones before it)"
            return
        }
        var first: (Int, String)?
        for (k, (pattern, frame)) in zip(expected, judged).enumerated() {
            if let why = pattern.mismatch(with: frame) {
                first = (k, Self.kindMismatch(pattern, frame) ?? why)
                break
            }
        }
        mismatch =
            first == nil && expected.count == judged.count
            ? nil : ConformanceText.summary(expected: expected.count, actual: judged.count, firstMismatch: first)
    }

    /// `expected an error to id 3, found the event os/taskLaunched` when a frame is not
    /// even the kind of frame expected (another event, a result for an error, another id).
    static func kindMismatch(_ pattern: Pattern, _ frame: JSONValue) -> String? {
        let sameKind = category(pattern) == category(frame)
        let sameID = pattern["id"].map { $0.mismatch(with: frame["id"] ?? .null) == nil } ?? true
        return sameKind && sameID ? nil : "expected \(describe(pattern)), found \(describe(frame))"
    }

    /// A frame's kind without its id: `the event os/taskLaunched`, `an error`, `a result`, `a batch reply`.
    private static func category(_ frame: JSONValue) -> String {
        switch frame {
        case .array: "a batch reply"
        case .object(let o):
            if let method = o["method"]?.stringValue, o["id"] == nil {
                "the event \(method)"
            } else {
                o["error"] != nil ? "an error" : o["result"] != nil ? "a result" : "a response"
            }
        default: "a \(frame.typeName)"
        }
    }

    private static func category(_ pattern: Pattern) -> String {
        switch pattern {
        case .array, .unordered: "a batch reply"
        case .object:
            if case .value(.string(let method))? = pattern["method"] {
                "the event \(method)"
            } else {
                pattern["error"] != nil ? "an error" : pattern["result"] != nil ? "a result" : "a response"
            }
        default: "\(pattern)"
        }
    }

    private static func describe(_ frame: JSONValue) -> String {
        let kind = category(frame)
        return kind.hasPrefix("an error") || kind.hasPrefix("a result") ? "\(kind) to id \(frame["id"] ?? .null)" : kind
    }

    private static func describe(_ pattern: Pattern) -> String {
        let kind = category(pattern)
        return kind.hasPrefix("an error") || kind.hasPrefix("a result")
            ? "\(kind) to id \(pattern["id"] ?? .any)" : kind
    }

    /// Whether a reader ignores this frame: a notification of a method the contract does not name.
    static func isIgnored(_ frame: JSONValue) -> Bool {
        guard case .object(let o) = frame, o["id"] == nil, let method = o["method"]?.stringValue else { return false }
        return !events.contains(method)
    }

    /// The (expected, actual) pairs that match, for the diff.
    static func alignment(_ expected: [Pattern], _ judged: [JSONValue]) -> [(Int, Int)] {
        ConformanceText.alignment(expected.count, judged.count) { expected[$0].mismatch(with: judged[$1]) == nil }
    }
}
