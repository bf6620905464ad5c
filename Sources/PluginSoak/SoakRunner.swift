import Dispatch
import Foundation
import HostProtocol
import PluginFuzzing
import PluginHost
import Synchronization

/// The soak: many invokes and fuzz cases against one plugin process, its memory
/// sampled at intervals, and the pending entries of both sides checked at the end.
///
/// The run is cut into rounds; each round sends its share of the invokes (three
/// scripted cycles through every invoke and the launch, expiration and
/// safety-timer paths, pipelined, every answer checked) and of the fuzz cases
/// (random step sequences from ``StepGenerator`` after a `plugin/reset`, mixed
/// with malformed frames, each case closed by a `plugin/state` barrier), then
/// samples the plugin's resident memory. The first rounds are the warm-up; after
/// them, resident memory may not grow by more than the limit.
package final class SoakRunner: Sendable {
    package struct Settings: Sendable {
        package var plugin: String
        package var pluginArguments: [String] = []
        package var invokes = 1_000_000
        package var fuzzCases = 100_000
        package var rounds = 10
        package var warmUpRounds = 2
        package var window = 64
        package var seed: UInt64 = 1
        package var growthLimitKB = 1024
        package var faultTrials = 20
        package var faultBudgetMs = 100.0

        package init(plugin: String) { self.plugin = plugin }
    }

    /// One memory sample, taken after a round.
    struct Sample: Sendable {
        let round: Int
        let invokes: Int
        let requests: Int
        let fuzzCases: Int
        let seconds: Double
        let plugin: SoakMemory
        let host: SoakMemory
        let hostPending: Int
    }

    /// What the fault trials measured, per kind.
    struct FaultFigures: Sendable {
        let kind: FaultLatency.Kind
        let noticed: Millis
        let reaped: Millis
        let failures: [String]
    }

    package struct Report: Sendable {
        var samples: [Sample] = []
        var invokeMismatches = 0
        var firstMismatches: [String] = []
        var fuzzViolations = 0
        var firstViolations: [String] = []
        var hostPendingAtEnd = -1
        var pluginPendingAtEnd = "unknown"
        var leakedPluginIDs = -1
        var probedIDs = 0
        var faults: [FaultFigures] = []
        var error: String?

        /// The plugin's resident-memory growth after the warm-up, KiB.
        func growth(warmUpRounds: Int) -> Int { growth(warmUpRounds, \.plugin.rss) }

        /// The host's resident-memory growth after the warm-up, KiB.
        func hostGrowth(warmUpRounds: Int) -> Int { growth(warmUpRounds, \.host.rss) }

        private func growth(_ warmUpRounds: Int, _ figure: KeyPath<Sample, Int>) -> Int {
            guard samples.count > warmUpRounds, warmUpRounds > 0 else { return 0 }
            let baseline = samples[warmUpRounds - 1][keyPath: figure]
            return max(0, (samples[warmUpRounds...].map { $0[keyPath: figure] }.max() ?? baseline) - baseline)
        }
    }

    package let settings: Settings
    private let progress: @Sendable (String) -> Void
    private let shared = Mutex(Shared())

    /// State touched by the connection's reader thread.
    private struct Shared {
        /// Raw fuzz requests written and not yet answered, by id, with their case.
        var outstanding: [RequestID: (count: Int, caseIndex: Int)] = [:]
        var violations: [String] = []
        var violationCount = 0
        /// Answers to the pending-id probe: id → error code (0 for success).
        var probeAnswers: [RequestID: Int] = [:]
        var probing = false
    }

    package init(settings: Settings, progress: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.progress = progress
    }

    // MARK: - Run

    package func run() -> Report {
        var report = Report()
        let connection: PluginConnection
        do {
            connection = try PluginConnection(
                plugin: .init(executable: settings.plugin, arguments: settings.pluginArguments),
                options: .init(tap: { [weak self] in self?.tap($0) }, stderrLine: { _ in }))
        } catch {
            report.error = "cannot start the plugin: \(error)"
            return report
        }
        defer { connection.close() }
        let pid = connection.pluginProcess.pid
        let started = ContinuousClock.now
        var invokesDone = 0, requestsDone = 0, casesDone = 0
        var script = InvokeScript()
        var rng = SplitMix64(seed: settings.seed)
        let rounds = max(1, settings.rounds)
        for round in 1...rounds {
            let invokeTarget = settings.invokes * round / rounds
            let caseTarget = settings.fuzzCases * round / rounds
            do {
                let (invokes, requests) = try runInvokes(invokeTarget - invokesDone, script: &script, on: connection, report: &report)
                invokesDone += invokes
                requestsDone += requests
                while casesDone < caseTarget {
                    try runFuzzCase(casesDone, rng: &rng, on: connection)
                    casesDone += 1
                }
            } catch {
                report.error = "round \(round): \(error)"
                break
            }
            guard let plugin = SoakMemory.of(pid: pid), let host = SoakMemory.current else {
                report.error = "cannot read /proc/\(pid)/status: the plugin is gone"
                break
            }
            let sample = Sample(
                round: round, invokes: invokesDone, requests: requestsDone, fuzzCases: casesDone,
                seconds: (ContinuousClock.now - started).milliseconds / 1000, plugin: plugin, host: host, hostPending: connection.pendingCount)
            report.samples.append(sample)
            progress(String(
                format: "soak: round %d/%d: %d invokes (%d requests), %d fuzz cases, plugin RSS %d KiB (peak %d), host RSS %d KiB, host pending %d, %.1f s",
                round, rounds, invokesDone, requestsDone, casesDone, plugin.rss, plugin.peak, host.rss, sample.hostPending, sample.seconds))
        }
        shared.withLock { s in
            report.fuzzViolations = s.violationCount
            report.firstViolations = s.violations
        }
        if report.error == nil { checkPendingAtEnd(connection, requests: requestsDone, report: &report) }
        if report.error == nil, settings.faultTrials > 0 { runFaultTrials(&report) }
        return report
    }

    // MARK: - Invokes

    /// Sends `count` invokes of the script (and the `os/` calls between them),
    /// at most `window` in flight; every answer is checked against the script.
    private func runInvokes(_ count: Int, script: inout InvokeScript, on connection: PluginConnection, report: inout Report) throws -> (Int, Int) {
        guard count > 0 else { return (0, 0) }
        // The script starts from a fresh plugin (the fuzz cases leave it anywhere).
        do {
            _ = try connection.callBlocking(method: PluginReset.name, params: nil, timeout: .seconds(60))
        } catch {
            throw SoakError("plugin/reset before the invokes failed: \(error)")
        }
        let permits = DispatchSemaphore(value: settings.window)
        let group = DispatchGroup()
        let mismatches = Mutex<(count: Int, first: [String])>((0, []))
        var invokes = 0, requests = 0
        // Whole cycles only, so that every waitForCancel is answered within the batch.
        while invokes < count || !script.atCycleStart {
            let step = script.next()
            if step.isInvoke { invokes += 1 }
            requests += 1
            permits.wait()
            group.enter()
            connection.start(method: step.method, params: step.params) { result in
                if !step.expect(result) {
                    mismatches.withLock { m in
                        m.count += 1
                        if m.first.count < 5 { m.first.append("\(step.method): expected \(step.expectation), got \(result)") }
                    }
                }
                permits.signal()
                group.leave()
            }
        }
        guard group.wait(timeout: .now() + .seconds(120)) == .success else {
            throw SoakError("invokes got no answer within 120 s (host pending \(connection.pendingCount))")
        }
        let m = mismatches.withLock { $0 }
        report.invokeMismatches += m.count
        report.firstMismatches += m.first.prefix(5 - min(5, report.firstMismatches.count))
        if let failure = connection.pendingCount > 0 ? "host still has \(connection.pendingCount) pending calls after a round" : nil {
            throw SoakError(failure)
        }
        return (invokes, requests)
    }

    // MARK: - Fuzz cases

    /// One case: a reset, random steps (ids made unique to the case, so that they
    /// never collide with the connection's own), sometimes malformed frames, and
    /// a `plugin/state` barrier through the connection.
    private func runFuzzCase(_ index: Int, rng: inout SplitMix64, on connection: PluginConnection) throws {
        var generator = StepGenerator(seed: settings.seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        var model = ReferenceModel(profile: .seed)
        var bytes: [UInt8] = []
        var ids: [RequestID] = []
        MessageWriter.appendRequest(id: .string("f\(index)-reset"), method: PluginReset.name, params: nil, to: &bytes)
        bytes.append(0x0A)
        ids.append(.string("f\(index)-reset"))
        for _ in 0..<(1 + rng.below(30)) {
            let step = generator.next(model: model)
            _ = model.apply(step.input)
            switch step.input {
            case .request(let r):
                let id: RequestID = r.id == .null ? .null : .string("f\(index)-\(r.id)")
                if id != .null { ids.append(id) }
                MessageWriter.appendRequest(id: id, method: r.method, params: r.params, to: &bytes)
            case .notification(let n):
                MessageWriter.appendNotification(method: n.method, params: n.params, to: &bytes)
            }
            bytes.append(0x0A)
            if rng.chance(0.1) {
                bytes += SoakRunner.malformed[rng.below(SoakRunner.malformed.count)]
                bytes.append(0x0A)
            }
        }
        if index % 1000 == 999 {
            // A frame over the 1 MiB limit, discarded as it arrives.
            bytes += [UInt8](repeating: UInt8(ascii: " "), count: (1 << 20) + 1) + Array("x\n".utf8)
        }
        shared.withLock { s in
            for id in ids { s.outstanding[id, default: (0, index)].count += 1 }
            // Entries of earlier cases left now are waits the seed dropped unanswered.
            if index % 64 == 0 { s.outstanding = s.outstanding.filter { $0.value.caseIndex >= index - 1 } }
        }
        do {
            try connection.pluginProcess.sendRaw(bytes)
        } catch {
            throw SoakError("cannot write case \(index): \(error)")
        }
        let state: JSONValue
        do {
            state = try connection.callBlocking(method: PluginStateMethod.name, params: nil, timeout: .seconds(60))
        } catch {
            throw SoakError("fuzz case \(index): the barrier failed: \(error)")
        }
        if state["counters"]?["violations"] != .number(0) {
            record("fuzz case \(index): counters.violations is \(state["counters"]?["violations"]?.description ?? "missing")")
        }
    }

    /// Frames that are not valid requests (their answers have id null).
    static let malformed: [[UInt8]] = [
        Array(#"{"jsonrpc":"2.0","id":"m","method":"#.utf8),
        Array(#"{"jsonrpc":"2.0","id":"m","method":"plugin/state","params":{"label":""#.utf8) + [0xC0, 0xAF] + Array(#""}}"#.utf8),
        Array(#"{"jsonrpc":"2.0","id":"m","method":"plugin/state","params":{"label":"\ud800"}}"#.utf8),
        Array("[]".utf8), Array("[1,2]".utf8), Array("{}".utf8), Array(#""x""#.utf8), Array("null".utf8),
        Array(String(repeating: "[", count: 1000).utf8),
        Array(#"{"jsonrpc":"2.0","id":NaN,"method":"plugin/state"}"#.utf8),
        Array(#"{"jsonrpc":"2.0","method":"os/launch","params":7}"#.utf8),
        [0x00, 0xFF, 0xFE, 0x7B],
        Array("\u{FEFF}{}".utf8),
        Array(#"{"jsonrpc":"2.0","id":null,"id":null,"method":"nope"}"#.utf8),
    ]

    private func record(_ violation: String) {
        shared.withLock { s in
            s.violationCount += 1
            if s.violations.count < 5 { s.violations.append(violation) }
        }
    }

    /// Sees every frame: fuzz answers are counted against what was sent.
    private func tap(_ event: ConnectionEvent) {
        guard case .receivedResponse(let r) = event else { return }
        shared.withLock { s in
            if s.probing, case .number = r.id {
                s.probeAnswers[r.id] = r.error.map { $0.code.rawValue } ?? 0
                return
            }
            guard case .string(let text) = r.id, text.hasPrefix("f") else { return }
            guard let entry = s.outstanding[r.id] else {
                s.violationCount += 1
                if s.violations.count < 5 { s.violations.append("request \(r.id) answered twice (or never sent)") }
                return
            }
            if entry.count == 1 { s.outstanding[r.id] = nil } else { s.outstanding[r.id]?.count -= 1 }
        }
    }

    // MARK: - Leaks

    /// No pending entries left: the host's table is empty; the plugin has no
    /// pending `waitForCancel` after a reset, and none of a sample of the ids it
    /// answered is still registered as pending (a reused id would get -32600).
    private func checkPendingAtEnd(_ connection: PluginConnection, requests: Int, report: inout Report) {
        do {
            _ = try connection.callBlocking(method: PluginReset.name, params: nil, timeout: .seconds(60))
            let state = try connection.callBlocking(method: PluginStateMethod.name, params: nil, timeout: .seconds(60))
            report.pluginPendingAtEnd = "pendingCancelInvoke \(state["pendingCancelInvoke"]?.description ?? "missing"), cancelInvokePending \(state["cancelInvokePending"]?.description ?? "missing")"
            if state["pendingCancelInvoke"] != .null || state["cancelInvokePending"] == .bool(true) {
                report.error = "the plugin still has a pending waitForCancel after a reset: \(report.pluginPendingAtEnd)"
            }
            // Probe: requests reusing ids the connection used (and got answered) earlier.
            let probes = min(1000, requests)
            var bytes: [UInt8] = []
            var probeIDs: [RequestID] = []
            for i in 0..<probes {
                let id = RequestID.int(1 + i * max(1, requests / max(1, probes)))
                probeIDs.append(id)
                MessageWriter.appendRequest(id: id, method: OSPendingTaskRequests.name, params: nil, to: &bytes)
                bytes.append(0x0A)
            }
            shared.withLock {
                $0.probing = true
                $0.probeAnswers = [:]
            }
            try connection.pluginProcess.sendRaw(bytes)
            _ = try connection.callBlocking(method: PluginStateMethod.name, params: nil, timeout: .seconds(60))
            let answers = shared.withLock { s in
                s.probing = false
                return s.probeAnswers
            }
            report.probedIDs = probeIDs.count
            report.leakedPluginIDs = probeIDs.filter { answers[$0] != 0 }.count
            if report.leakedPluginIDs > 0 {
                report.error = "\(report.leakedPluginIDs) of \(probeIDs.count) ids answered long ago are still pending in the plugin (-32600 on reuse, or no answer)"
            }
        } catch {
            report.error = "the final checks failed: \(error)"
        }
        report.hostPendingAtEnd = connection.pendingCount
        if report.hostPendingAtEnd != 0 { report.error = report.error ?? "the host's pending table still holds \(report.hostPendingAtEnd) calls" }
    }

    // MARK: - Fault latency

    private func runFaultTrials(_ report: inout Report) {
        for kind in FaultLatency.Kind.allCases {
            var noticed: [Double] = [], reaped: [Double] = [], failures: [String] = []
            for _ in 0..<settings.faultTrials {
                do {
                    let t = try FaultLatency.trial(kind, plugin: settings.plugin, arguments: settings.pluginArguments)
                    noticed.append(t.noticedMs)
                    reaped.append(t.reapedMs)
                } catch {
                    failures.append("\(error)")
                }
            }
            let figures = FaultFigures(kind: kind, noticed: Millis(noticed), reaped: Millis(reaped), failures: failures)
            report.faults.append(figures)
            progress(String(format: "soak: fault %@: p50 %.2f ms, p99 %.2f ms, max %.2f ms over %d trials%@", kind.rawValue, figures.noticed.p50,
                            figures.noticed.p99, figures.noticed.max, noticed.count, failures.isEmpty ? "" : ", \(failures.count) failed"))
        }
    }
}

struct SoakError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The scripted invokes: three cycles that go through all five invokes and the
/// launch, expiration and safety-timer paths, each answer known in advance.
struct InvokeScript {
    struct Step: Sendable {
        let method: String
        let params: JSONValue?
        let isInvoke: Bool
        /// What the answer must be, for messages.
        let expectation: String
        let expect: @Sendable (Result<JSONValue, HostError>) -> Bool
    }

    private var position = 0
    private static let refresh = "com.example.app.bg-refresh"
    private static let processing = "com.example.app.bg-processing"

    var atCycleStart: Bool { Self.steps.indices.contains(position) && Self.cycleStarts.contains(position) }

    mutating func next() -> Step {
        defer { position = (position + 1) % Self.steps.count }
        return Self.steps[position]
    }

    static func invoke(_ method: String, _ params: JSONValue? = nil, _ expectation: String, _ expect: @escaping @Sendable (Result<JSONValue, HostError>) -> Bool) -> Step {
        Step(method: method, params: params, isInvoke: true, expectation: expectation, expect: expect)
    }

    static func os(_ method: String, _ params: JSONValue?, _ expectation: String, _ expect: @escaping @Sendable (Result<JSONValue, HostError>) -> Bool) -> Step {
        Step(method: method, params: params, isInvoke: false, expectation: expectation, expect: expect)
    }

    static let null: @Sendable (Result<JSONValue, HostError>) -> Bool = { (try? $0.get()) == .null }
    static func rejected(_ reason: RejectReason) -> @Sendable (Result<JSONValue, HostError>) -> Bool {
        { if case .failure(.rejected(reason, _)) = $0 { true } else { false } }
    }
    static let object: @Sendable (Result<JSONValue, HostError>) -> Bool = { (try? $0.get())?.objectValue != nil }

    /// Cycle A (refresh launched and completed), cycle B (processing launched and
    /// expired), cycle C (refresh launched, safety timer fires).
    static let steps: [Step] = [
        invoke(StartKeepalive.name, .object([:]), "null", null),
        invoke(WaitForCancel.name, nil, "rejected completed", rejected(.completed)),
        os(OSLaunch.name, ["identifier": .string(refresh)], "launch result", object),
        invoke(CompleteBgTask.name, ["success": true], "null", null),
        invoke(WaitForCancel.name, nil, "rejected listenerCancelled", rejected(.listenerCancelled)),
        invoke(CancelCancelListener.name, nil, "null", null),
        invoke(StopKeepalive.name, nil, "null", null),

        invoke(StartKeepalive.name, ["iosProcessingSafetyTimeoutSecs": 5], "null", null),
        invoke(WaitForCancel.name, nil, "resolved (expiration)", null),
        os(OSLaunch.name, ["identifier": .string(processing)], "launch result", object),
        os(OSExpire.name, ["identifier": .string(processing)], "null", null),
        invoke(WaitForCancel.name, nil, "rejected stopped", rejected(.stopped)),
        invoke(StopKeepalive.name, nil, "null", null),

        invoke(StartKeepalive.name, ["iosSafetyTimeoutSecs": 1], "null", null),
        invoke(WaitForCancel.name, nil, "resolved (safety timer)", null),
        os(OSLaunch.name, ["identifier": .string(refresh)], "launch result", object),
        os(OSAdvanceTime.name, ["seconds": 1], "{now}", object),
        invoke(CompleteBgTask.name, ["success": false], "null", null),
        invoke(StopKeepalive.name, nil, "null", null),
    ]
    static let cycleStarts: Set<Int> = [0, 7, 13]
}
