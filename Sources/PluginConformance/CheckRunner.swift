import Dispatch
import Foundation
import HostProtocol
import PluginHost

/// Runs one check under one profile against a fresh plugin process.
struct CheckRunner: Sendable {
    /// The method of the barrier request: not a method of the contract, so any
    /// conforming plugin answers it with -32601 and changes nothing.
    static let barrierMethod = "conformance/barrier"
    /// The most replies a failure keeps to show (the rest are counted).
    static let reportedFrames = 200

    let plugin: PluginUnderTest

    /// Runs the check; a `runsTwice` check is run in a second process too and both
    /// stdouts must be byte-identical. A check that needs an extension the plugin does
    /// not offer (``probe(_:profile:)``, or -32601 to it) is skipped.
    func run(_ check: ConformanceCheck, profile: Profile) -> CheckOutcome {
        let started = DispatchTime.now()
        var first: Run
        switch probe(check, profile: profile) {
        case .run: first = runOnce(check, profile: profile, stopAtFirstFailure: !check.runsTwice)
        case .notOffered(let why): first = Run(skippedFor: why)
        case .failed(let run): first = run
        }
        var failure = first.failure
        var reason = first.reason
        var breach = first.breach
        var frames = first.framesValidated
        if check.runsTwice, first.skippedFor == nil, failure == nil {
            // Determinism: two runs must write the same bytes, whatever they are.
            let second = runOnce(check, profile: profile, stopAtFirstFailure: false)
            frames += second.framesValidated
            if second.failure != nil {
                (failure, reason, breach) = (second.failure, "second run: " + (second.reason ?? ""), second.breach)
            } else if first.transcript != second.transcript {
                (failure, reason) = Self.difference(first, second)
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let status: CheckOutcome.Status = first.skippedFor != nil ? .skipped : failure == nil ? .passed : .failed
        var outcome = CheckOutcome(
            name: check.name, profile: profile, section: check.section, rule: check.rule, status: status,
            reason: first.skippedFor.map { "skipped (extension not offered: \($0))" }
                ?? (failure == nil ? nil : reason),
            failure: status == .failed ? failure : nil, seconds: seconds)
        outcome.framesValidated = frames
        outcome.breach = status == .failed ? breach : nil
        return outcome
    }

    /// Two runs that wrote different bytes: the failure, with their lines side by side.
    private static func difference(_ first: Run, _ second: Run) -> (CheckOutcome.Failure, String) {
        let (a, b) = (first.transcript?.lines ?? [], second.transcript?.lines ?? [])
        let pairs = ConformanceText.alignment(a.count, b.count) { a[$0] == b[$1] }
        let firstDiff = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }.map { ($0.offset, "") }
        let sizes = "\(first.transcript?.count ?? 0) and \(second.transcript?.count ?? 0) bytes"
        let cut = first.transcript?.isCut == true || second.transcript?.isCut == true
        let reason =
            "two runs of the same script in two processes wrote different bytes ("
            + (a == b && cut
                ? "the same first \(OutputMeter.size(Transcript.keptLimit)), then different: \(sizes)"
                : ConformanceText.summary(expected: a.count, actual: b.count, firstMismatch: firstDiff)) + ")"
        let failure = CheckOutcome.Failure(
            step: 0, steps: first.steps, sent: first.allSent, expected: Self.reported(a), actual: Self.reported(b),
            matched: pairs.filter { $0.0 < reportedFrames && $0.1 < reportedFrames },
            note: "expected: the first run's stdout (barrier replies included); actual: the second run's"
                + (cut ? " (each shown up to its first \(OutputMeter.size(Transcript.keptLimit)))" : ""),
            stderrTail: "")
        return (failure, reason)
    }

    /// The first `limit` texts, each shortened for keeping, and a count of the rest.
    static func reported(_ texts: [String], limit: Int = reportedFrames) -> [String] {
        let shown = texts.prefix(limit).map { ConformanceText.shorten($0, limit: 4000) }
        return shown + (texts.count > shown.count ? ["… (\(texts.count - shown.count) more not kept)"] : [])
    }

    /// The most replies kept for a check the plugin broke the transport in (a flood's
    /// first frames say what it was; the rest is more of the same).
    static let reportedFramesOfBreach = 20

    /// One plugin process playing the check's script.
    struct Run {
        var failure: CheckOutcome.Failure?
        var reason: String?
        var breach: CheckOutcome.Breach?
        var transcript: Transcript?
        var steps = 0
        var allSent: [String] = []
        var framesValidated = 0
        /// Why the check is skipped: the extension the plugin does not offer, and how that shows.
        var skippedFor: String?

        /// A run that failed before its first step (`note` is the reason).
        static func failedToStart(_ note: String, steps: Int) -> Run {
            var run = Run(reason: note, steps: steps)
            run.failure = .init(step: 0, steps: steps, sent: [], expected: [], actual: [], note: note, stderrTail: "")
            return run
        }
    }

    /// Starts the plugin for a check: `--profile P`, the check's flags, an Info.plist
    /// (removed by `cleanup`), the arguments after `--`.
    func start(_ check: ConformanceCheck, profile: Profile) throws(StartFailure) -> (PluginPipe, cleanup: () -> Void) {
        var arguments = ["--profile", profile.rawValue] + check.flags
        var plistPath: String?
        if let plist = check.infoPlist {
            let path = NSTemporaryDirectory() + "conformance-\(getpid())-\(UUID().uuidString).plist"
            do {
                try plist.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw StartFailure(
                    description: "cannot write the Info.plist for the check: \(error.localizedDescription)")
            }
            plistPath = path
            arguments += ["--info-plist", path]
        }
        let cleanup = { if let plistPath { try? FileManager.default.removeItem(atPath: plistPath) } }
        do {
            let pipe = try PluginPipe(
                executable: plugin.executable, arguments: arguments + plugin.extraArguments,
                environment: plugin.environment)
            return (pipe, cleanup)
        } catch {
            cleanup()
            throw StartFailure(description: error.description)
        }
    }

    /// Why a plugin process could not be started.
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    private func runOnce(_ check: ConformanceCheck, profile: Profile, stopAtFirstFailure: Bool) -> Run {
        let steps = check.script(profile)
        let pipe: PluginPipe
        let cleanup: () -> Void
        do {
            (pipe, cleanup) = try start(check, profile: profile)
        } catch {
            return .failedToStart(error.description, steps: steps.count)
        }
        defer { cleanup() }
        var run = Run(steps: steps.count)
        var session = ExchangeSession(check: check, pipe: pipe, timeout: plugin.timeout, limits: plugin.limits)
        var unbarriered: [String] = []
        for (index, step) in steps.enumerated() {
            let sent = unbarriered + step.inputs.map(\.display)
            run.allSent += step.inputs.map(\.display)
            let result = session.play(step, barrierNumber: index + 1)
            if case .none = step.ending {
                unbarriered = sent
                continue
            }
            unbarriered = []
            let values = result.values
            if let method = missingExtension(check, session, values) {
                run.skippedFor = method
                break
            }
            let match = ExchangeMatch(
                expected: step.expect, frames: values, amongOthers: step.amongOthers,
                judgesEveryNotification: step.judgesEveryNotification)
            guard match.mismatch != nil || result.note != nil || !result.violations.isEmpty else { continue }
            if run.failure == nil {
                // A broken transport explains whatever else is wrong with the step.
                let why =
                    result.breach != nil
                    ? [result.note].compactMap { $0 }
                    : [result.note, result.violations.first, match.mismatch].compactMap { $0 }
                run.reason = why.joined(separator: "; ")
                run.breach = result.breach
                var notes = [result.note].compactMap { $0 } + (result.breach == nil ? result.violations : [])
                if match.ignored > 0 {
                    notes.append("\(match.ignored) notification(s) of methods the contract does not name were ignored")
                }
                let limit = result.breach == nil ? Self.reportedFrames : Self.reportedFramesOfBreach
                let judged = Array(match.judged.prefix(limit))
                run.failure = .init(
                    step: index + 1, steps: steps.count, sent: sent, expected: step.expect.map(\.description),
                    actual: Self.reported(judged.map(\.description), limit: limit)
                        + (match.judged.count > limit ? ["… (\(match.judged.count - limit) more not kept)"] : []),
                    matched: ExchangeMatch.alignment(step.expect, judged), amongOthers: step.amongOthers,
                    note: notes.isEmpty ? nil : notes.joined(separator: "\n        "), stderrTail: pipe.stderrTail)
            }
            if stopAtFirstFailure || result.note != nil { break }
        }
        if check.runsTwice, run.failure == nil { session.readToEnd() }
        pipe.stop()
        // The stderr written up to the plugin's end (stop() waits for it).
        run.failure?.stderrTail = pipe.stderrTail
        run.transcript = session.transcript
        run.framesValidated = session.framesValidated
        return run
    }

    /// The extension method the check needs that the plugin answered with -32601, if any.
    private func missingExtension(_ check: ConformanceCheck, _ session: ExchangeSession, _ frames: [JSONValue])
        -> String?
    {
        for method in check.requires {
            let ids = session.requestIDs(method: method)
            let unknown = frames.contains { frame in
                (frame.arrayValue ?? [frame]).contains { m in
                    m["error"]?["code"]?.int64Value == -32601 && m["id"].map { ids.contains($0.description) } == true
                }
            }
            if unknown { return method }
        }
        return nil
    }
}
