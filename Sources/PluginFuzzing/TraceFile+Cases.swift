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
}
