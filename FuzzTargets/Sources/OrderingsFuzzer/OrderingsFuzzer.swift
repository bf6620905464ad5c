import BackgroundServicePlugin
import HostProtocol
import PluginFuzzing

#if canImport(Glibc)
    import Glibc
#endif

/// Orderings of invokes, OS events and time, fuzzed in-process.
///
/// The input bytes decode into up to ``maxSteps`` steps (see ``StepDecoder``):
/// the five invokes (as requests and as notifications) with well- and ill-typed
/// params, every `os/` control, `plugin/state`, `plugin/reset`, unknown methods,
/// params of the wrong JSON type, batches, and ids that are fresh, reused, null,
/// `1.0`-style twins, or the pending `waitForCancel`'s. Each step is fed to a
/// fresh ``PluginEngine`` (events on, virtual clock) as an ndjson frame, and to
/// PluginFuzzing's independent ``ReferenceModel``.
///
/// Oracles (any failure traps, and libFuzzer keeps the input):
/// 1. No crash, no hang, no sanitizer report.
/// 2. Model agreement: each step's output equals the model's prediction, frame
///    by frame, compared as the plugin-level fuzzer does (``FrameComparison``:
///    error messages and `plugin/state`'s extension members left out).
/// 3. Independent invariants: every output frame is valid JSON-RPC; no
///    `os/violation` event; no request answered twice; every request except
///    `waitForCancel` answered by the step that sent it; a batch answered by one
///    array holding exactly its requests' answers.
/// 4. The ledger, from a final `plugin/state`: `counters.violations` is 0 and every
///    launched task was completed exactly once or is still the active one
///    (`launched == completed + (activeTask != null ? 1 : 0)`).
/// 5. At end of input nothing more is written.
enum OrderingsFuzzer {
    static let maxSteps = 64

    static func run(_ input: UnsafeRawBufferPointer) {
        var decoder = StepDecoder(input)
        guard let first = decoder.byte() else { return }
        let profile: Profile = first & 1 == 0 ? .seed : .strict
        var session = Session(profile: profile)
        var count = 0
        while count < maxSteps, let op = decoder.byte() {
            if op % 16 == 15 {
                let members = (0..<(2 + Int(decoder.byte() ?? 0) % 3)).map { _ in
                    decoder.message(op: decoder.byte() ?? 0, model: session.model, inBatch: true)
                }
                guard session.staysClearOfTheClockLimit(members) else { break }
                session.batch(members)
                count += members.count
            } else {
                let message = decoder.message(op: op, model: session.model, inBatch: false)
                guard session.staysClearOfTheClockLimit([message]) else { break }
                session.single(message)
                count += 1
            }
        }
        session.finish(stateID: decoder.freshID())
    }
}

/// One engine and one model, fed the same steps.
struct Session {
    let engine: PluginEngine
    var model: ReferenceModel
    /// The steps so far (a batch as one entry), summarized only for a failure report.
    var steps: [[ReferenceModel.Input]] = []
    var log: [String] {
        steps.map { $0.count == 1 ? summary($0[0]) : "batch [" + $0.map(summary).joined(separator: ", ") + "]" }
    }
    /// Requests sent and not yet answered, by id (null ids are not counted: an
    /// invalid notification is answered with id null too).
    var outstanding: [RequestID: Int] = [:]
    /// The result of the last `plugin/state` written.
    var lastState: JSONValue?

    init(profile: Profile) {
        var options = PluginOptions()
        options.profile = profile
        options.events = true
        do {
            engine = try PluginEngine(options: options)
        } catch {
            fail("the engine does not start: \(error)", log: [])
        }
        model = ReferenceModel(profile: profile)
    }

    // MARK: Steps

    /// Whether the model's clock stays more than a day short of its limit (2^62 ns,
    /// about 146 years) through these inputs. Both now agree that a timer whose deadline
    /// reaches the limit never fires (docs/rules.md, timers), but the limit's other
    /// saturations (begin dates, launches at the limit) are not modelled, so a run still
    /// stops before it gets there (docs/reliability.md, "known gaps").
    func staysClearOfTheClockLimit(_ inputs: [ReferenceModel.Input]) -> Bool {
        // Only os/advanceTime moves the clock.
        guard inputs.contains(where: { if case .request(let r) = $0 { r.method == "os/advanceTime" } else { false } })
        else { return true }
        var probe = model
        for input in inputs { _ = probe.apply(input) }
        return probe.now.nanoseconds < VirtualTime.limit - 86_400 * 1_000_000_000
    }

    mutating func single(_ input: ReferenceModel.Input) {
        steps.append([input])
        let expected = model.apply(input)
        let actual = feed(frame: bytes(of: input), expected: expected)
        compare(expected: expected, actual: actual)
        account(sent: [input], received: actual)
        if case .request(let r) = input, r.method != "waitForCancel" {
            check(
                actual.contains { isResponse($0, to: r.id) }, "request \(r.id) (\(r.method)) was not answered at once")
        }
    }

    mutating func batch(_ members: [ReferenceModel.Input]) {
        steps.append(members)
        var immediate: [JSONValue] = []
        var answers: [JSONValue] = []
        for member in members {
            let frames = model.apply(member)
            switch member {
            case .request(let r):
                let answer = frames.lastIndex { isResponse($0, to: r.id) }
                for (i, f) in frames.enumerated() {
                    if i == answer { answers.append(f) } else { immediate.append(f) }
                }
                check(answer != nil, "the model did not answer batch member \(r.id) (\(r.method))")
            case .notification:
                // An invalid notification (params of a wrong type) is answered in the batch.
                if frames.count == 1, frames[0]["error"]?["code"] == .number(-32600) {
                    answers += frames
                } else {
                    immediate += frames
                }
            case .batch:
                // This target builds its batches from requests and notifications only
                // (JSON-RPC has no nested batch); the model's own batches are for --dispatch tauri.
                fail("a batch member was itself a batch", log: log)
            }
        }
        let expected = answers.isEmpty ? immediate : immediate + [.array(answers)]
        var body: [UInt8] = [UInt8(ascii: "[")]
        for (i, m) in members.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body += bytes(of: m).dropLast()
        }
        body += [UInt8(ascii: "]"), 0x0A]
        let actual = feed(frame: body, expected: expected)
        compare(expected: expected, actual: actual)
        account(sent: members, received: actual)
        if members.contains(where: { if case .request = $0 { true } else { false } }) {
            check(actual.last?.arrayValue != nil, "a batch with requests got no array reply")
        }
    }

    mutating func finish(stateID: RequestID) {
        let request = ReferenceModel.Input.request(Request(id: stateID, method: "plugin/state"))
        single(request)
        guard let state = lastState else { fail("no plugin/state reply", log: log) }
        let counters = state["counters"]
        check(
            counters?["violations"] == .number(0),
            "counters.violations is \(counters?["violations"]?.description ?? "missing")")
        let launched = counters?["launched"]?.int64Value ?? -1
        let completed = counters?["completed"]?.int64Value ?? -1
        let active: Int64 = state["activeTask"] == .null ? 0 : 1
        check(launched == completed + active, "ledger: launched \(launched), completed \(completed), active \(active)")
        engine.endOfInput()
        check(!engine.hasOutput, "output after end of input: \(String(decoding: engine.takeOutput(), as: UTF8.self))")
    }

    // MARK: Engine

    /// Feeds one ndjson frame; returns the frames written, parsed, checking each is
    /// valid JSON-RPC and not a violation. A line whose bytes are exactly the model's
    /// prediction is taken as that prediction without parsing (most are: only
    /// `plugin/state`, with its extension members, differs), which keeps the target fast.
    mutating func feed(frame: [UInt8], expected: [JSONValue]) -> [JSONValue] {
        engine.receive(frame)
        let out = engine.takeOutput()
        var frames: [JSONValue] = []
        var encoded: [UInt8] = []
        for (i, line) in out.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().enumerated() {
            let value: JSONValue
            if i < expected.count, case _ = encoded.removeAll(keepingCapacity: true),
                case _ = JSONWriter.write(expected[i], to: &encoded),
                line.elementsEqual(encoded)
            {
                value = expected[i]
            } else {
                guard let parsed = try? JSONParser.parse(line) else {
                    fail("an output frame is not JSON: \(String(decoding: line, as: UTF8.self))", log: log)
                }
                switch Envelope.classify(parsed) {
                case .single(.response), .single(.notification): break
                case .batch(let ms) where ms.allSatisfy({ if case .response = $0 { true } else { false } }): break
                default: fail("an output frame is not a response, a batch reply or an event: \(parsed)", log: log)
                }
                value = parsed
            }
            check(value["method"] != .string("os/violation"), "violation event: \(value)")
            if value["error"]?["code"] == .number(-32603) { fail("internal error written: \(value)", log: log) }
            if value["result"]?["counters"] != nil { lastState = value["result"] }
            frames.append(value)
        }
        check(out.last == nil || out.last == 0x0A, "output does not end with a newline")
        return frames
    }

    /// ``FrameComparison/normalize(_:)``, applied to each member of a batch reply too.
    static func normalize(_ frame: JSONValue) -> JSONValue {
        if let members = frame.arrayValue { return .array(members.map(FrameComparison.normalize)) }
        return FrameComparison.normalize(frame)
    }

    func compare(expected: [JSONValue], actual: [JSONValue]) {
        // Most frames are byte-identical; only those that differ are normalized.
        if expected.count == actual.count, zip(expected, actual).allSatisfy({ $0 == $1 }) { return }
        if let m = FrameComparison.firstMismatch(
            expected: expected.map(Session.normalize), actual: actual.map(Session.normalize))
        {
            fail(
                """
                the plugin and the reference model disagree at frame \(m.index) (\(m.signature))
                  expected: \(m.expected?.description ?? "nothing")
                  actual:   \(m.actual?.description ?? "nothing")
                  all expected: \(expected.map(\.description))
                  all actual:   \(actual.map(\.description))
                """, log: log)
        }
    }

    /// No id is answered more often than it was sent.
    mutating func account(sent: [ReferenceModel.Input], received: [JSONValue]) {
        for case .request(let r) in sent where r.id != .null { outstanding[r.id, default: 0] += 1 }
        var responses: [JSONValue] = []
        for f in received {
            if let members = f.arrayValue { responses += members } else if f["method"] == nil { responses.append(f) }
        }
        for r in responses {
            guard let id = r["id"].flatMap(RequestID.init(json:)), id != .null else { continue }
            let n = outstanding[id, default: 0]
            check(n > 0, "request \(id) answered twice (or never sent): \(r)")
            outstanding[id] = n == 1 ? nil : n - 1
        }
    }

    func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message(), log: log) }
    }

    func isResponse(_ frame: JSONValue, to id: RequestID) -> Bool {
        frame["method"] == nil && frame["id"] == id.json
    }

    func bytes(of input: ReferenceModel.Input) -> [UInt8] {
        var out: [UInt8] = []
        switch input {
        case .request(let r): MessageWriter.appendRequest(id: r.id, method: r.method, params: r.params, to: &out)
        case .notification(let n): MessageWriter.appendNotification(method: n.method, params: n.params, to: &out)
        case .batch: out += FuzzStep(input).json.compactBytes
        }
        out.append(0x0A)
        return out
    }

    func summary(_ input: ReferenceModel.Input) -> String { FuzzStep(input).summary }
}

func fail(_ message: String, log: [String]) -> Never {
    var text = "FUZZ ORACLE FAILED: \(message)\nsteps:\n"
    for (i, s) in log.enumerated() { text += "  \(i + 1). \(s)\n" }
    _ = text.withCString { write(2, $0, strlen($0)) }
    abort()
}
