import Dispatch
import Foundation
import HostProtocol

/// The plugin binary under test and how to start it.
package struct PluginUnderTest: Sendable {
    /// Path to the executable.
    package var executable: String
    /// Arguments added after each check's own flags (`plugin-host conformance -- ARGS`).
    package var extraArguments: [String] = []
    /// Environment variables added to the host's (the mutation test sets `BSP_FAULT`).
    package var environment: [String: String] = [:]
    /// How long one step may wait for its replies before it counts as a hang.
    package var stepTimeout: DispatchTimeInterval = .seconds(10)

    package init(
        executable: String, extraArguments: [String] = [], environment: [String: String] = [:],
        stepTimeout: DispatchTimeInterval = .seconds(10)
    ) {
        self.executable = executable
        self.extraArguments = extraArguments
        self.environment = environment
        self.stepTimeout = stepTimeout
    }
}

/// Runs one check under one profile against a fresh plugin process.
struct CheckRunner: Sendable {
    /// The method of the barrier request: not a method of the contract, so any
    /// conforming plugin answers it with -32601 and changes nothing.
    static let barrierMethod = "conformance/barrier"

    let plugin: PluginUnderTest

    /// Runs the check; a `runsTwice` check is run in a second process too and both
    /// stdouts must be byte-identical. A check that needs an extension the plugin
    /// answers with -32601 is skipped.
    func run(_ check: ConformanceCheck, profile: Profile) -> CheckOutcome {
        let started = DispatchTime.now()
        let first = runOnce(check, profile: profile, stopAtFirstFailure: !check.runsTwice)
        var failure = first.failure
        var reason = first.reason
        var frames = first.framesValidated
        if check.runsTwice, first.skippedFor == nil {
            // Determinism: two runs must write the same bytes, whatever they are.
            let second = runOnce(check, profile: profile, stopAtFirstFailure: false)
            frames += second.framesValidated
            if first.stdout != second.stdout {
                let a = Self.rawFrames(first.stdout)
                let b = Self.rawFrames(second.stdout)
                let pairs = ConformanceText.alignment(a.count, b.count) { a[$0] == b[$1] }
                let firstDiff = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }.map { ($0.offset, "") }
                reason =
                    "two runs of the same script in two processes wrote different bytes ("
                    + ConformanceText.summary(expected: a.count, actual: b.count, firstMismatch: firstDiff) + ")"
                failure = .init(
                    step: 0, steps: first.steps, sent: first.allSent, expected: a, actual: b, matched: pairs,
                    note: "expected: the first run's stdout (barrier replies included); actual: the second run's",
                    stderrTail: "")
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
        return outcome
    }

    /// The lines of a stdout, for showing two runs side by side.
    private static func rawFrames(_ bytes: [UInt8]) -> [String] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    private struct Run {
        var failure: CheckOutcome.Failure?
        var reason: String?
        var stdout: [UInt8] = []
        var steps = 0
        var allSent: [String] = []
        var framesValidated = 0
        /// The extension the plugin answered -32601 to, when the check needs it.
        var skippedFor: String?
    }

    private func runOnce(_ check: ConformanceCheck, profile: Profile, stopAtFirstFailure: Bool) -> Run {
        let steps = check.script(profile)
        var run = Run(steps: steps.count)
        var arguments = ["--profile", profile.rawValue] + check.flags
        var plistPath: String?
        if let plist = check.infoPlist {
            let path = NSTemporaryDirectory() + "conformance-\(getpid())-\(UUID().uuidString).plist"
            do {
                try plist.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                run.reason = "cannot write the Info.plist for the check: \(error.localizedDescription)"
                run.failure = .init(
                    step: 0, steps: steps.count, sent: [], expected: [], actual: [], note: run.reason, stderrTail: "")
                return run
            }
            plistPath = path
            arguments += ["--info-plist", path]
        }
        defer { if let plistPath { try? FileManager.default.removeItem(atPath: plistPath) } }
        arguments += plugin.extraArguments
        let pipe: PluginPipe
        do {
            pipe = try PluginPipe(executable: plugin.executable, arguments: arguments, environment: plugin.environment)
        } catch {
            run.reason = error.description
            run.failure = .init(
                step: 0, steps: steps.count, sent: [], expected: [], actual: [], note: run.reason, stderrTail: "")
            return run
        }
        var session = StepSession(check: check, pipe: pipe, timeout: plugin.stepTimeout)
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
            let values = result.frames.map(\.value)
            if let method = missingExtension(check, session, values) {
                run.skippedFor = method
                break
            }
            let match = StepMatch(expected: step.expect, frames: values, amongOthers: step.amongOthers)
            guard match.mismatch != nil || result.note != nil || !result.violations.isEmpty else { continue }
            if run.failure == nil {
                let why = [result.note, result.violations.first, match.mismatch].compactMap { $0 }
                run.reason = why.joined(separator: "; ")
                var notes = [result.note].compactMap { $0 } + result.violations
                if match.ignored > 0 {
                    notes.append("\(match.ignored) notification(s) of methods the contract does not name were ignored")
                }
                run.failure = .init(
                    step: index + 1, steps: steps.count, sent: sent, expected: step.expect.map(\.description),
                    actual: match.judged.map(\.description), matched: StepMatch.alignment(step.expect, match.judged),
                    amongOthers: step.amongOthers, note: notes.isEmpty ? nil : notes.joined(separator: "\n        "),
                    stderrTail: pipe.stderrTail)
            }
            if stopAtFirstFailure || result.note != nil { break }
        }
        pipe.stop()
        run.stdout = pipe.stdout
        run.framesValidated = session.framesValidated
        return run
    }

    /// The extension method the check needs that the plugin answered with -32601, if any.
    private func missingExtension(_ check: ConformanceCheck, _ session: StepSession, _ frames: [JSONValue]) -> String? {
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
