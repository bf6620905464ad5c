import HostProtocol
import PluginHost

/// A trace's steps read back as a case to replay, every line checked: a line that does
/// not say what to send (plugin level) or what to do (system level), a schedule, a
/// scenario or an action out of range is a ``TraceFile/ReadError`` naming the line,
/// never a step dropped or a crash (`replay` exits 64).
extension TraceFile {
    /// The plugin's `--dispatch` the trace was made under (`serial` when not written).
    public func dispatch() throws(ReadError) -> DispatchMode {
        guard let value = header.extra["dispatch"] else { return .serial }
        guard let mode = value.stringValue.flatMap(DispatchMode.init(rawValue:)) else {
            throw ReadError(source.path, line: 1, "\"dispatch\" must be \"serial\" or \"tauri\", not \(value)")
        }
        return mode
    }

    /// A plugin-level trace's steps, and the frames each step recorded (`actual`; none
    /// when the line has no `actual`).
    public func pluginSteps() throws(ReadError) -> [(step: FuzzStep, recorded: [JSONValue])] {
        var out: [(FuzzStep, [JSONValue])] = []
        for (i, line) in lines.enumerated() {
            let n = lineNumber(i)
            guard let send = line["send"] else { throw ReadError(source.path, line: n, "a step line has no \"send\"") }
            if let schedule = line["schedule"] {
                let names = schedule.arrayValue?.map { $0.stringValue.flatMap(DispatchQueueName.init(rawValue:)) }
                guard let names, !names.contains(where: { $0 == nil }) else {
                    throw ReadError(source.path, line: n, "\"schedule\" must be a list of \"ipc\" and \"main\"")
                }
            }
            guard let step = FuzzStep(json: send, schedule: line["schedule"]) else {
                throw ReadError(
                    source.path, line: n, "\"send\" is not a JSON-RPC request, notification or batch of them")
            }
            if let id = PluginCase.sentIDs([send]).keys.first(where: { $0.stringValue?.hasPrefix("~") == true }) {
                throw ReadError(
                    source.path, line: n,
                    "request id \(id): ids starting with \"~\" are the driver's own (its reset,"
                        + " markers and closing request)")
            }
            let recorded = line["actual"] ?? .array([])
            guard let frames = recorded.arrayValue else {
                throw ReadError(source.path, line: n, "\"actual\" must be a list of the frames the plugin wrote")
            }
            out.append((step, frames))
        }
        return out
    }

    /// A system-level trace's case, and the timeline lines each action recorded.
    public func systemCase() throws(ReadError) -> (SystemCase, recorded: [[String]]) {
        guard let json = header.extra["scenario"] else {
            throw ReadError(source.path, line: 1, "a system trace's header has no \"scenario\"")
        }
        guard let scenario = SystemScenario(json: json) else {
            throw ReadError(source.path, line: 1, "the header's \"scenario\" is incomplete or has a wrong member")
        }
        if let why = scenario.outOfRange { throw ReadError(source.path, line: 1, "the scenario's \(why)") }
        var actions: [SystemAction] = []
        var recorded: [[String]] = []
        for (i, line) in lines.enumerated() {
            let n = lineNumber(i)
            guard let action = line["action"] else {
                throw ReadError(source.path, line: n, "a step line has no \"action\"")
            }
            do throws(SystemAction.ReadError) {
                actions.append(try SystemAction.read(action))
            } catch {
                throw ReadError(source.path, line: n, error.description)
            }
            let timeline = line["timeline"] ?? .array([])
            guard let entries = timeline.arrayValue?.map(\.stringValue), !entries.contains(where: { $0 == nil }) else {
                throw ReadError(source.path, line: n, "\"timeline\" must be a list of strings")
            }
            recorded.append(entries.compactMap { $0 })
        }
        return (SystemCase(scenario: scenario, actions: actions), recorded)
    }
}

extension SystemScenario {
    /// The longest time a scenario or action may name: 10 years, in seconds.
    static let maxSeconds = 315_360_000.0

    /// What is out of range, in words; nil when every member is in range.
    var outOfRange: String? {
        func bad(_ x: Double) -> Bool { !(0...Self.maxSeconds).contains(x) }
        if !(1...100_000).contains(blockingThreads) { return "blockingThreads must be from 1 to 100,000" }
        if runs.contains(where: { bad($0.initSeconds) || bad($0.runSeconds) }) {
            return "runs' initSeconds and runSeconds must be from 0 to \(Int(Self.maxSeconds)) s"
        }
        if [safetyTimeout, processingSafetyTimeout, earliestMinutes * 60, (processingEarliestMinutes ?? 0) * 60]
            .contains(where: bad) || Double(listenerTimeout) > Self.maxSeconds
        {
            return "timeouts and begin dates must be from 0 to \(Int(Self.maxSeconds)) s"
        }
        return nil
    }
}
