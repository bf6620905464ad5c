import Foundation
import HostProtocol
import PluginBench
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
    package let settings: Settings
    let progress: @Sendable (String) -> Void
    let shared = Mutex(Shared())

    /// State touched by the connection's reader thread.
    struct Shared {
        /// Raw fuzz requests written and not yet answered, by id, with their case.
        var outstanding: [RequestID: (count: Int, caseIndex: Int)] = [:]
        var violations: [String] = []
        var violationCount = 0
        /// Answers to the pending-id probe: id → error code (0 for success).
        var probeAnswers: [RequestID: Int] = [:]
        var probing = false
        /// Events read since the last answer (``maxEventsWithoutAnswer``).
        var eventsSinceAnswer = 0
        /// The last answer was one the pending table does not know (a fuzz case's, a probe's).
        var unmatchedAnswerExpected = false
        /// Why the plugin was stopped as breaking the transport.
        var transportFailure: String?
        /// The plugin's transport, for stopping it from the tap.
        var transport: (any PluginTransport)?
    }

    package init(settings: Settings, progress: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.progress = progress
    }

    // MARK: - Run

    package func run() -> Report {
        var report = Report()
        let stderr = PluginStderr()
        defer { report.stderrLines = stderr.count }
        let connection: PluginConnection
        do {
            // No events are kept (`.bufferingNewest(0)`): the soak reads none, and a plugin
            // that writes them without end is stopped by the tap (``maxEventsWithoutAnswer``).
            connection = try PluginConnection(
                plugin: .init(executable: settings.plugin, arguments: settings.pluginArguments, stderrPrefix: ""),
                options: .init(
                    tap: { [weak self] in self?.tap($0) }, stderrLine: stderr.sink,
                    notificationBuffer: .bufferingNewest(0),
                    log: { _ in }))
        } catch {
            report.pluginFailure = .init(kind: .didNotStart, detail: "\(error)")
            return report
        }
        shared.withLock { $0.transport = connection.transport }
        var closed = false
        defer {
            // A plugin that broke the transport was stopped already; one that did not is
            // given its usual grace to exit on end of input.
            if !closed { connection.close(grace: report.pluginFailure == nil ? .seconds(2) : .milliseconds(200)) }
            shared.withLock { $0.transport = nil }
        }
        guard let pid = connection.pluginProcess?.pid else {
            report.error = "the soak measures a plugin process, and this plugin is not one"
            return report
        }
        // The plugin has started and served a request before anything is measured: a
        // sample taken while it is still loading reads its start-up as growth.
        do {
            _ = try connection.callBlocking(PluginStateMethod.self, EmptyParams(), timeout: settings.timeout)
        } catch {
            if let why = transportFailure {
                report.pluginFailure = .init(kind: .brokeTransport, detail: why)
            } else if error.code == .pluginExited {
                let status = connection.close(grace: .milliseconds(500))  // its stderr read to the end
                closed = true
                report.pluginFailure = .init(
                    kind: .didNotStart,
                    detail: "the plugin \(status) before answering its first request (plugin/state); its stderr:\n"
                        + stderr.excerpt())
            } else {
                report.pluginFailure = .init(
                    kind: .brokeTransport, detail: "waiting for the answer to the first request: \(error)")
            }
            return report
        }
        let started = ContinuousClock.now
        var invokesDone = 0
        var requestsDone = 0
        var casesDone = 0
        var script = InvokeScript()
        var rng = SplitMix64(seed: settings.seed)
        let rounds = max(1, settings.rounds)
        for round in 1...rounds {
            let invokeTarget = settings.invokes * round / rounds
            let caseTarget = settings.fuzzCases * round / rounds
            do {
                let (invokes, requests) = try runInvokes(
                    invokeTarget - invokesDone, script: &script, on: connection, report: &report)
                invokesDone += invokes
                requestsDone += requests
                while casesDone < caseTarget {
                    try runFuzzCase(casesDone, rng: &rng, on: connection)
                    casesDone += 1
                }
            } catch {
                if transportFailure != nil || (error as? SoakError)?.cause.map(Self.isTransport) == true {
                    // Once the reader has ended, the tap has seen all the plugin wrote (a
                    // frame cut off by its exit, say): the first thing it saw wrong is the cause.
                    connection.close(grace: .milliseconds(200))
                    closed = true
                    let detail = transportFailure.map { "\($0) (then: \(error))" } ?? "\(error)"
                    report.pluginFailure = .init(kind: .brokeTransport, detail: "round \(round): \(detail)")
                } else {
                    report.error = "round \(round): \(error)"
                }
                break
            }
            guard let plugin = SoakMemory.of(pid: pid), let host = SoakMemory.current else {
                report.error = "cannot read /proc/\(pid)/status: the plugin is gone"
                break
            }
            let sample = Sample(
                round: round, invokes: invokesDone, requests: requestsDone, fuzzCases: casesDone,
                seconds: (ContinuousClock.now - started).milliseconds / 1000, plugin: plugin, host: host,
                hostPending: connection.pendingCount)
            report.samples.append(sample)
            progress(
                String(
                    format:
                        "soak: round %d/%d: %d invokes (%d requests), %d fuzz cases, plugin RSS %d KiB (peak %d), host "
                        + "RSS %d KiB, host pending %d, %.1f s",
                    round, rounds, invokesDone, requestsDone, casesDone, plugin.rss, plugin.peak, host.rss,
                    sample.hostPending, sample.seconds))
        }
        shared.withLock { s in
            report.fuzzViolations = s.violationCount
            report.firstViolations = s.violations
        }
        if report.error == nil, report.pluginFailure == nil {
            checkPendingAtEnd(connection, requests: requestsDone, report: &report)
        }
        if report.pluginFailure == nil, let why = transportFailure {
            report.pluginFailure = .init(kind: .brokeTransport, detail: why)
        }
        if report.error == nil, report.pluginFailure == nil, settings.faultTrials > 0 { runFaultTrials(&report) }
        return report
    }

    // MARK: - Fault latency

    private func runFaultTrials(_ report: inout Report) {
        for kind in FaultLatency.Kind.allCases {
            var noticed: [Double] = []
            var reaped: [Double] = []
            var failures: [String] = []
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
            progress(
                String(
                    format: "soak: fault %@: p50 %.2f ms, p99 %.2f ms, max %.2f ms over %d trials%@", kind.rawValue,
                    figures.noticed.p50,
                    figures.noticed.p99, figures.noticed.max, noticed.count,
                    failures.isEmpty ? "" : ", \(failures.count) failed"))
        }
    }
}

struct SoakError: Error, CustomStringConvertible {
    let description: String
    /// The call's failure, when a call failed.
    let cause: HostError?
    init(_ description: String, cause: HostError? = nil) {
        self.description = description
        self.cause = cause
    }
}
