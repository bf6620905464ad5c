import HostProtocol
import PluginHost

/// Reading an action back from a trace, with the reason when it is not one.
extension SystemAction {
    /// Why a trace's action cannot be played.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        /// Why, in words.
        public let description: String
    }

    /// Reads an action from its JSON (``json``). A `together` nests only what the
    /// fuzzer draws: a plain action played with an OS event (neither of them a `together`).
    public static func read(_ json: JSONValue) throws(ReadError) -> SystemAction {
        func fail(_ why: String) -> ReadError { ReadError(description: why) }
        guard let name = json["action"]?.stringValue else {
            throw fail("\"action\" must be a string naming the action")
        }
        switch name {
        case "start": return .start
        case "stop": return .stop
        case "launch":
            guard let k = json["kind"]?.stringValue.flatMap(TaskKind.init(rawValue:)) else {
                throw fail("launch: \"kind\" must be \"refresh\" or \"processing\"")
            }
            return .launch(k)
        case "expire": return .expire
        case "advance":
            guard let t = json["seconds"].flatMap({ VirtualTime(jsonValue: $0) }),
                t.nanoseconds >= 0, t.seconds <= SystemScenario.maxSeconds
            else {
                throw fail("advance: \"seconds\" must be a time from 0 to \(Int(SystemScenario.maxSeconds)) s")
            }
            return .advance(t)
        case "conditions":
            guard let p = json["params"].flatMap({ try? OSSetConditions.Params(json: $0) }) else {
                throw fail("conditions: \"params\" are not os/setConditions params")
            }
            return .conditions(p)
        case "iosConditions":
            guard let p = json["params"].flatMap({ try? OSSetConditions.IOSParams(json: $0) }) else {
                throw fail("iosConditions: \"params\" are not os/setConditions params")
            }
            return .iosConditions(p)
        case "terminate":
            guard let r = json["reason"]?.stringValue.flatMap(TerminationReason.init(rawValue:)) else {
                throw fail("terminate: \"reason\" is not a termination reason")
            }
            return .terminate(r)
        case "openApp": return .openApp
        case "webviewCreated": return .webviewCreated
        case "policy":
            guard let p = json["params"].flatMap({ try? IOSPolicy.Update(json: $0) }) else {
                throw fail("policy: \"params\" are not os/setPolicy params")
            }
            return .policy(p)
        case "blockMain":
            guard let t = json["seconds"].flatMap({ VirtualTime(jsonValue: $0) }),
                t.nanoseconds >= 0, t.seconds <= SystemScenario.maxSeconds
            else {
                throw fail("blockMain: \"seconds\" must be a time from 0 to \(Int(SystemScenario.maxSeconds)) s")
            }
            return .blockMain(t)
        case "onMainThread":
            guard let command = json["command"] else { throw fail("onMainThread: \"command\" is required") }
            let inner = try read(command)
            guard inner == .start || inner == .stop else {
                throw fail("onMainThread: \"command\" must be the app's start or stop")
            }
            return .onMainThread(inner)
        case "maxConcurrentTasks":
            if json["limit"] == .null { return .maxConcurrentTasks(nil) }
            guard let n = json["limit"]?.int64Value, n >= 1, n <= Int64(IOSPolicy.maxConcurrentTasksLimit) else {
                throw fail(
                    "maxConcurrentTasks: \"limit\" must be an integer from 1 to "
                        + "\(IOSPolicy.maxConcurrentTasksLimit), or null"
                )
            }
            return .maxConcurrentTasks(Int(n))
        case "sendToBackground": return .sendToBackground
        case "advanceToNextDeadline": return .advanceToNextDeadline
        case "together":
            guard let during = json["during"], let os = json["os"], let invoke = json["invoke"]?.stringValue else {
                throw fail("together: \"during\", \"os\" and \"invoke\" (a method name) are required")
            }
            let inner = (try read(during), try read(os))
            if case .together = inner.0 { throw fail("together: \"during\" cannot be another together") }
            if case .together = inner.1 { throw fail("together: \"os\" cannot be another together") }
            return .together(inner.0, os: inner.1, invoke: invoke)
        default:
            throw fail("unknown action \(JSONValue.string(name))")
        }
    }
}
