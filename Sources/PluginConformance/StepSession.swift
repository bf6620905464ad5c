import Dispatch
import HostProtocol

/// Plays the steps of one script against one plugin process and collects each
/// step's replies: up to the barrier's reply, or up to the end of stdout.
struct StepSession {
    /// What one step received.
    struct Result {
        /// The replies, normalized (or raw for raw checks; escaped text for frames
        /// that are not JSON).
        var actual: [String] = []
        /// A hang, an early end of output, broken framing, a bad exit status.
        var note: String?
    }

    let check: ConformanceCheck
    let pipe: PluginPipe
    let timeout: DispatchTimeInterval
    /// Normalizes replies, knowing which ids were `plugin/state` and `initialize`.
    private(set) var normalizer = ReplyNormalizer()
    private var splitter: OutputSplitter
    private var consumed = 0
    private var closed = false
    private var sentRequests: [String: Set<String>] = [:]

    /// Starts a session on a running plugin.
    init(check: ConformanceCheck, pipe: PluginPipe, timeout: DispatchTimeInterval) {
        self.check = check
        self.pipe = pipe
        self.timeout = timeout
        splitter = OutputSplitter(framing: check.outputFraming)
    }

    /// The ids (JSON text) of the requests sent for `method`.
    func requestIDs(method: String) -> Set<String> { sentRequests[method] ?? [] }

    /// Writes the step's inputs and collects its replies.
    mutating func play(_ step: ConformanceStep, barrierNumber: Int) -> Result {
        var writeFailed = false
        let writeDeadline = DispatchTime.now() + timeout
        for input in step.inputs {
            normalizer.noteSent(input)
            noteRequests(input)
            if !pipe.write(input.bytes(framing: check.inputFraming), deadline: writeDeadline) { writeFailed = true }
        }
        var result = Result()
        switch step.ending {
        case .none:
            return result
        case .barrier:
            let id = "conformance-barrier-\(barrierNumber)"
            let barrier = #"{"jsonrpc":"2.0","id":"\#(id)","method":"\#(CheckRunner.barrierMethod)"}"#
            if !pipe.write(FrameEncoder.frame(Array(barrier.utf8), framing: check.inputFraming)) { writeFailed = true }
            collect(into: &result, barrierID: id)
        case .exit(let closeStdin):
            if closeStdin { pipe.closeStdin() }
            collect(into: &result, barrierID: nil)
            if result.note == nil {
                if !splitter.pending.isEmpty {
                    result.note = "stdout ended in the middle of a frame: \(ConformanceText.escape(splitter.pending))"
                } else if let status = pipe.waitForExit(timeout: timeout), status != .exited(0) {
                    result.note = "the plugin \(status), not with status 0"
                } else if pipe.waitForExit(timeout: .milliseconds(0)) == nil {
                    result.note = "the plugin closed stdout but did not exit"
                }
            }
        }
        if pipe.killedByWatchdog {
            result.note = "the plugin stopped reading its stdin (a write was still blocked at the time limit; the plugin was killed)"
        } else if writeFailed, result.note == nil, case .barrier = step.ending {
            result.note = "the plugin stopped reading its stdin"
        }
        return result
    }

    private mutating func noteRequests(_ input: ConformanceInput) {
        guard case .json(let text) = input, let value = try? JSONParser.parse(Array(text.utf8)) else { return }
        for m in value.arrayValue ?? [value] {
            if let id = m["id"], let method = m["method"]?.stringValue { sentRequests[method, default: []].insert(id.description) }
        }
    }

    /// Reads frames until the barrier's reply (or, without a barrier, until stdout closes).
    private mutating func collect(into result: inout Result, barrierID: String?) {
        let deadline = DispatchTime.now() + timeout
        while true {
            do {
                while let frame = try splitter.next() {
                    if let barrierID, Self.isReply(frame.body, to: barrierID) { return }
                    if check.compareRaw {
                        result.actual.append(String(decoding: frame.raw, as: UTF8.self))
                    } else if let text = normalizer.normalize(frame.body) {
                        result.actual.append(text)
                    } else {
                        result.actual.append("(not JSON) " + ConformanceText.escape(frame.raw))
                        result.note = "stdout carried a frame that is not JSON; stdout must carry protocol frames only"
                        return
                    }
                }
            } catch {
                result.note = "stdout is not \(check.outputFraming.rawValue)-framed: \(error.description)"
                return
            }
            if closed {
                if barrierID != nil {
                    let status = pipe.waitForExit(timeout: .milliseconds(500)).map { " (the plugin \($0))" } ?? ""
                    result.note = "stdout closed\(status) before the barrier request was answered"
                }
                return
            }
            guard let more = pipe.read(after: consumed, deadline: deadline) else {
                result.note = barrierID == nil
                    ? "the plugin did not close stdout within the time limit (hang?)"
                    : "no reply to the barrier request within the time limit (the plugin hangs?)"
                return
            }
            consumed += more.bytes.count
            splitter.append(more.bytes)
            closed = more.closed
        }
    }

    /// Whether a frame is the response to the barrier request.
    private static func isReply(_ body: [UInt8], to id: String) -> Bool {
        guard let v = try? JSONParser.parse(body), case .object(let o) = v else { return false }
        return o["id"] == .string(id) && o["method"] == nil
    }
}
