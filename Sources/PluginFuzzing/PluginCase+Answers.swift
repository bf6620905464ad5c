import HostProtocol

/// Answers that break the transport rather than a rule of the contract: a request
/// answered more often than it was sent, or an answer to an id never sent. The host
/// cannot tell what such a plugin means (every subcommand reports it the same way, exit
/// 3), so the fuzzers stop on it instead of reporting a difference from the model.
extension PluginCase {
    /// How many times each id was sent in `messages` (requests, and requests in batches;
    /// `null` ids are not counted: their answers are not matched to requests).
    static func sentIDs(_ messages: [JSONValue]) -> [JSONValue: Int] {
        var sent: [JSONValue: Int] = [:]
        func count(_ m: JSONValue) {
            guard m["method"] != nil, let id = m["id"], id != .null else { return }
            sent[id, default: 0] += 1
        }
        for m in messages {
            if let members = m.arrayValue { members.forEach(count) } else { count(m) }
        }
        return sent
    }

    /// The ids sent in a script's ndjson bytes (``sentIDs(_:)``).
    static func sentIDs(encoded bytes: [UInt8]) -> [JSONValue: Int] {
        sentIDs(bytes.split(separator: 0x0A).compactMap { try? JSONParser.parse(Array($0)) })
    }

    /// What is wrong with an answer: its id (as JSON) was answered more often than it was
    /// sent, or never sent.
    enum AnswerProblem: Sendable, Hashable {
        case answeredTwice(String)
        case unknownID(String)

        /// As the driver's error.
        var error: PluginDriver.DriverError {
            switch self {
            case .answeredTwice(let id): .answeredTwice(id)
            case .unknownID(let id): .unknownID("\(id), which was never sent")
            }
        }
    }

    /// The first answer in `frames` to an id answered more often than `sent` says it was
    /// sent, or to an id not sent at all; nil when there is none.
    static func answerProblem(_ frames: [JSONValue], sent: [JSONValue: Int]) -> PluginDriver.DriverError? {
        firstProblem(frames, sent: sent)?.error
    }

    /// ``answerProblem(_:sent:)``, as a value.
    static func firstProblem(_ frames: [JSONValue], sent: [JSONValue: Int]) -> AnswerProblem? {
        var left = sent
        func check(_ v: JSONValue) -> AnswerProblem? {
            guard v["method"] == nil, let id = v["id"], id != .null, v["result"] != nil || v["error"] != nil else {
                return nil
            }
            guard let n = left[id] else {
                return sent[id] == nil ? .unknownID(id.description) : .answeredTwice(id.description)
            }
            left[id] = n == 1 ? nil : n - 1
            return nil
        }
        for frame in frames {
            if let members = frame.arrayValue {
                for m in members { if let p = check(m) { return p } }
            } else if let p = check(frame) {
                return p
            }
        }
        return nil
    }

    /// The ids a case's script sends: its reset, its steps, and under `--dispatch tauri`
    /// the markers around each step (``runTauri(on:profile:resetID:)``).
    func scriptIDs(resetID: Int) -> [JSONValue: Int] {
        var sent = Self.sentIDs(steps.map(\.json))
        sent[.string("~reset-\(resetID)"), default: 0] += 1
        guard dispatch == .tauri else { return sent }
        for (k, step) in steps.enumerated() {
            let markers = step.members != nil ? ["~schedule-\(k)", "~after-\(k)", "~step-\(k)"] : ["~step-\(k)"]
            for m in markers { sent[.string(m), default: 0] += 1 }
        }
        return sent
    }
}
