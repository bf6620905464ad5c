import Dispatch
import HostProtocol

/// Plays the steps of one script against one plugin process and collects each
/// step's frames, up to the barrier's reply or up to the end of stdout, validating
/// every frame against the OpenRPC document as it arrives.
struct StepSession {
    /// One frame the plugin wrote.
    struct Received {
        /// The frame's bytes as written, framing included (an ndjson line keeps no `\n`).
        let raw: [UInt8]
        /// The parsed body.
        let value: JSONValue

        /// The body as compact JSON, for reports.
        var text: String { value.description }
    }

    /// What one step received.
    struct Result {
        /// The frames, in order (the barrier's reply excluded).
        var frames: [Received] = []
        /// What makes the frames unusable: a hang, an early end of output, broken
        /// framing, a frame that is not JSON, a bad exit status.
        var note: String?
        /// How frames break the OpenRPC document (or the check's form rule).
        var violations: [String] = []
    }

    let check: ConformanceCheck
    let pipe: PluginPipe
    let timeout: DispatchTimeInterval
    /// Validates every frame, knowing which method each response answers.
    private(set) var validator = FrameValidator()
    private var splitter: OutputSplitter
    private var consumed = 0
    private var closed = false
    private var framesSeen = 0
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
            validator.noteSent(["jsonrpc": "2.0", "id": .string(id), "method": .string(CheckRunner.barrierMethod)])
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
            result.note =
                "the plugin stopped reading its stdin (a write was still blocked at the time limit; the plugin was "
                + "killed)"
        } else if writeFailed, result.note == nil, case .barrier = step.ending {
            result.note = "the plugin stopped reading its stdin"
        }
        return result
    }

    private mutating func noteRequests(_ input: ConformanceInput) {
        guard case .json(let text) = input, let value = try? JSONParser.parse(Array(text.utf8)) else { return }
        validator.noteSent(value)
        for m in value.arrayValue ?? [value] {
            if let id = m["id"], let method = m["method"]?.stringValue {
                sentRequests[method, default: []].insert(id.description)
            }
        }
    }

    /// Reads frames until the barrier's reply (or, without a barrier, until stdout closes).
    private mutating func collect(into result: inout Result, barrierID: String?) {
        let deadline = DispatchTime.now() + timeout
        while true {
            do {
                while let frame = try splitter.next() {
                    guard let value = try? JSONParser.parse(frame.body) else {
                        result.note =
                            "stdout carried a frame that is not JSON (stdout must carry protocol frames only): "
                            + ConformanceText.escape(frame.raw)
                        return
                    }
                    framesSeen += 1
                    let label = "frame \(framesSeen) of stdout"
                    result.violations += validator.violations(of: value).map { "\(label): \($0)" }
                    if check.judgesTextForm, let problem = JSONTextShape.problem(in: frame.body) {
                        result.violations.append("\(label) is not compact JSON with sorted keys: \(problem)")
                    }
                    if let barrierID, Self.isReply(value, to: barrierID) { return }
                    result.frames.append(Received(raw: frame.raw, value: value))
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
                result.note =
                    barrierID == nil
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
    private static func isReply(_ value: JSONValue, to id: String) -> Bool {
        guard case .object(let o) = value else { return false }
        return o["id"] == .string(id) && o["method"] == nil
    }

    /// How many frames were validated against the document (a batch reply counts each response).
    var framesValidated: Int { validator.validated }
}
