import Dispatch
import HostProtocol
import PluginHost

/// Plays the steps of one script against one plugin process and collects each
/// step's frames, up to the barrier's reply or up to the end of stdout, validating
/// every frame against the OpenRPC document as it arrives.
///
/// Bounded: every wait ends at the check's deadline; a frame past
/// ``PeerLimits/maxFrameBytes``, more than ``PeerLimits/maxUnpromptedFrames`` (or bytes)
/// since the suite last wrote, or more than ``PeerLimits/maxHeldFrames`` (or bytes) in
/// the whole check stops the plugin and fails the check as flooding, with the figures.
/// Frames are held as their bytes (parsed again when the step is matched), at most
/// ``violationLimit`` violations are kept.
struct ExchangeSession {
    /// What one step received.
    struct Result {
        /// The frames' JSON bodies as written, in order (the barrier's reply excluded).
        var frames: [[UInt8]] = []
        /// What makes the frames unusable: a hang, an early end of output, broken
        /// framing, a frame that is not JSON, a bad exit status, a flood.
        var note: String?
        /// How the plugin broke the transport, when it did (the note says more).
        var breach: CheckOutcome.Breach?
        /// How frames break the OpenRPC document (or the check's form rule).
        var violations: [String] = []

        /// The frames parsed (each was parsed once already, when it arrived).
        var values: [JSONValue] { frames.map { (try? JSONParser.parse($0)) ?? .null } }
    }

    /// The most violations kept for one step (the rest are counted).
    static let violationLimit = 50

    let check: ConformanceCheck
    let pipe: PluginPipe
    /// When the check's time is up: no wait goes past it.
    let deadline: DispatchTime
    /// The check's time limit in words, for messages (`10 s, --timeout`).
    let limitText: String
    /// Validates every frame, knowing which method each response answers.
    private(set) var validator = FrameValidator()
    private var splitter: OutputSplitter
    private var closed = false
    private var framesSeen = 0
    private var sentRequests: [String: Set<String>] = [:]
    /// Frames and bytes since the suite last wrote, and in the whole check.
    private var unprompted: OutputMeter
    private var written: OutputMeter
    /// Every byte of stdout, for a check that compares two runs (else nil).
    private(set) var transcript: Transcript?
    /// Ends a step at the first response, whatever its id (the suite's first request,
    /// before any check: a plugin that answers with an id never sent is seen at once).
    var endsAtFirstResponse = false

    /// Starts a session on a running plugin, for at most `timeout`.
    init(check: ConformanceCheck, pipe: PluginPipe, timeout: DispatchTimeInterval, limits: PeerLimits) {
        self.check = check
        self.pipe = pipe
        deadline = .now() + timeout
        limitText = "the check's limit is \(ConformanceText.seconds(timeout)), --timeout"
        splitter = OutputSplitter(framing: check.outputFraming, maxFrameBytes: limits.maxFrameBytes)
        unprompted = OutputMeter(frames: limits.maxUnpromptedFrames, bytes: limits.maxUnpromptedBytes)
        written = OutputMeter(frames: limits.maxHeldFrames, bytes: limits.maxHeldBytes)
        transcript = check.runsTwice ? Transcript() : nil
    }

    /// The ids (JSON text) of the requests sent for `method`.
    func requestIDs(method: String) -> Set<String> { sentRequests[method] ?? [] }

    /// Writes the step's inputs and collects its replies.
    mutating func play(_ step: Exchange, barrierNumber: Int) -> Result {
        var writeFailed = false
        for input in step.inputs {
            noteRequests(input)
            unprompted.reset()
            if !pipe.write(input.bytes(framing: check.inputFraming), deadline: deadline) { writeFailed = true }
        }
        var result = Result()
        switch step.ending {
        case .none:
            return result
        case .barrier:
            let id = "conformance-barrier-\(barrierNumber)"
            let barrier = #"{"jsonrpc":"2.0","id":"\#(id)","method":"\#(CheckRunner.barrierMethod)"}"#
            validator.noteSent(["jsonrpc": "2.0", "id": .string(id), "method": .string(CheckRunner.barrierMethod)])
            unprompted.reset()
            if !pipe.write(FrameEncoder.frame(Array(barrier.utf8), framing: check.inputFraming), deadline: deadline) {
                writeFailed = true
            }
            collect(into: &result, awaiting: .barrier(id: id, step: barrierNumber))
        case .exit(let closeStdin):
            if closeStdin { pipe.closeStdin() }
            collect(into: &result, awaiting: .end)
            if result.note == nil { checkEnd(&result) }
        }
        if pipe.killedByWatchdog {
            result.note =
                "the plugin stopped reading its stdin (a write was still blocked at the time limit; the plugin was "
                + "killed)"
            result.breach = .stoppedReading
        } else if writeFailed, result.note == nil, case .barrier = step.ending {
            result.note = "the plugin stopped reading its stdin"
            result.breach = .ended
        }
        return result
    }

    /// After the output has ended where a step expects it: nothing cut off, exit status 0.
    private func checkEnd(_ result: inout Result) {
        if !splitter.pending.isEmpty {
            result.note = "stdout ended in the middle of a frame: \(ConformanceText.escape(splitter.pending))"
            result.breach = .ended
        } else if let status = pipe.waitForExit(timeout: Self.remaining(until: deadline)), status != .exited(0) {
            result.note = "the plugin \(status), not with status 0"
        } else if pipe.waitForExit(timeout: .milliseconds(0)) == nil {
            result.note = "the plugin closed stdout but did not exit (waited until the end of the check: \(limitText))"
            result.breach = .timedOut
        }
    }

    /// Reads what is left of stdout up to its end (closing stdin first), for a check
    /// that compares whole outputs; bounded like every step, ending at the deadline
    /// or two seconds after stdin closed, whichever comes first.
    mutating func readToEnd() {
        pipe.closeStdin()
        let end = min(deadline, .now() + .seconds(2))
        while !closed, let more = pipe.take(deadline: end) {
            closed = more.closed
            guard !more.bytes.isEmpty else { continue }
            transcript?.append(more.bytes)
            if written.add(bytes: more.bytes.count) != nil {
                pipe.kill()
                return
            }
        }
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

    /// What a step waits for.
    private enum Awaited {
        /// The reply to the barrier request of step `step`.
        case barrier(id: String, step: Int)
        /// The end of stdout.
        case end

        var isEnd: Bool {
            if case .end = self { return true }
            return false
        }
    }

    /// Reads frames until the barrier's reply (or, without a barrier, until stdout closes).
    private mutating func collect(into result: inout Result, awaiting: Awaited) {
        let started = DispatchTime.now()
        var dropped = 0
        defer {
            if dropped > 0 { result.violations.append("… and \(dropped) more violation(s) not shown") }
        }
        while true {
            do {
                while let frame = try splitter.next() {
                    if let over = unprompted.add(bytes: frame.raw.count) {
                        return flooded(&result, "\(over) since the suite last wrote to it")
                    }
                    if let over = written.add(bytes: frame.raw.count) {
                        return flooded(&result, "\(over) in this check")
                    }
                    guard let value = try? JSONParser.parse(frame.body) else {
                        result.note =
                            "stdout carried a frame that is not JSON (stdout must carry protocol frames only): "
                            + ConformanceText.escape(frame.raw)
                        return
                    }
                    framesSeen += 1
                    let label = "frame \(framesSeen) of stdout"
                    var found = validator.violations(of: value).map { "\(label): \($0)" }
                    if check.judgesTextForm, let problem = JSONTextShape.problem(in: frame.body) {
                        found.append("\(label) is not compact JSON with sorted keys: \(problem)")
                    }
                    let room = max(0, Self.violationLimit - result.violations.count)
                    result.violations += found.prefix(room)
                    dropped += max(0, found.count - room)
                    if case .barrier(let id, _) = awaiting, Self.isReply(value, to: id) { return }
                    result.frames.append(frame.body)
                    if endsAtFirstResponse, value["id"] != nil, value["method"] == nil { return }
                }
            } catch {
                result.note = "stdout is not \(check.outputFraming.rawValue)-framed: \(error.description)"
                if error.oversize {
                    result.note = "the plugin wrote \(error.description); the plugin was stopped"
                    result.breach = .flooding
                    pipe.kill()
                }
                return
            }
            if closed {
                if case .barrier = awaiting {
                    let status = pipe.waitForExit(timeout: .milliseconds(500)).map { " (the plugin \($0))" } ?? ""
                    result.note = "stdout closed\(status) before the barrier request was answered"
                    result.breach = .ended
                }
                return
            }
            guard let more = pipe.take(deadline: deadline) else {
                return timedOut(&result, awaiting: awaiting, waited: started)
            }
            transcript?.append(more.bytes)
            splitter.append(more.bytes)
            closed = more.closed
        }
    }

    private func flooded(_ result: inout Result, _ figures: String) {
        pipe.kill()
        result.note = "the plugin flooded stdout: \(figures); the plugin was stopped"
        result.breach = .flooding
    }

    private func timedOut(_ result: inout Result, awaiting: Awaited, waited started: DispatchTime) {
        let waited = ConformanceText.seconds(since: started)
        let exited = pipe.exitStatus
        pipe.kill()
        result.breach = .timedOut
        if let status = exited {
            result.note =
                "the plugin \(status) but its stdout stayed open (a process it started holds it?); waited \(waited) "
                + "for " + (awaiting.isEnd ? "the end of stdout" : "the barrier's reply")
            result.breach = .ended
            return
        }
        switch awaiting {
        case .barrier(let id, let step):
            result.note =
                "no reply to the barrier request of step \(step) (\(CheckRunner.barrierMethod), id \"\(id)\") within "
                + "the time limit (the plugin hangs?): waited \(waited), \(limitText)"
        case .end:
            result.note =
                "the plugin did not close stdout within the time limit (hang?): waited \(waited), \(limitText)"
        }
    }

    /// Time left until `deadline`, as a duration (zero once past it).
    static func remaining(until deadline: DispatchTime) -> Duration {
        let now = DispatchTime.now().uptimeNanoseconds
        return .nanoseconds(Int64(deadline.uptimeNanoseconds > now ? deadline.uptimeNanoseconds - now : 0))
    }

    /// Whether a frame is the response to the barrier request.
    private static func isReply(_ value: JSONValue, to id: String) -> Bool {
        guard case .object(let o) = value else { return false }
        return o["id"] == .string(id) && o["method"] == nil
    }

    /// How many frames were validated against the document (a batch reply counts each response).
    var framesValidated: Int { validator.validated }
}
