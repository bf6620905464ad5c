import HostProtocol
import PluginHost

extension TraceFile {
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
