import Foundation
import HostSimulation
import PluginFuzzing
import PluginHost

/// What `fuzz` and `replay` say when the plugin fails (it is never a finding), and the
/// checks made before a run starts.
extension FuzzCommand {
    /// A run of either level's fuzzer: to its end, or to its plugin's failure (with the
    /// findings made before it), its time, and the progress line closed with the totals.
    struct Drive<Finding> {
        var findings: [Finding]
        var failure: PluginFailure?
        var elapsed: TimeInterval
    }

    /// Runs `run` (a fuzzer's `run()`) and closes `progress`; `soFar` gives the findings
    /// made when the plugin failed, `totals` the cases and steps run.
    static func drive<Finding>(
        _ progress: FuzzProgress, run: () throws(PluginFailure) -> [Finding], soFar: () -> [Finding],
        totals: () -> (cases: Int, steps: Int)
    ) -> Drive<Finding> {
        let started = Date()
        var result = Drive<Finding>(findings: [], failure: nil, elapsed: 0)
        do throws(PluginFailure) {
            result.findings = try run()
        } catch {
            result.failure = error
            result.findings = soFar()
        }
        result.elapsed = Date().timeIntervalSince(started)
        let t = totals()
        progress.finish(cases: t.cases, steps: t.steps, findings: result.findings.count)
        return result
    }

    /// Reports a plugin that could not be started (exit 2) or failed during the run (exit
    /// 3) on stderr, with its last stderr lines; returns the exit status.
    static func report(_ failure: PluginFailure, subcommand: String = "fuzz") -> Int32 {
        switch failure.kind {
        case .didNotStart:
            HostCLI.diagnose(subcommand, failure.description)
        case .misbehaved:
            HostCLI.diagnose(
                subcommand,
                "the plugin failed, so the \(subcommand == "replay" ? "replay" : "run") could not be judged: \(failure)"
            )
        }
        showStderr(failure.stderr, subcommand: subcommand)
        return failure.kind == .didNotStart ? ExitCode.pluginDidNotStart : ExitCode.pluginMisbehaved
    }

    /// The plugin's last stderr lines, indented, or a line saying it wrote none.
    static func showStderr(_ lines: [String], subcommand: String) {
        guard !lines.isEmpty else {
            HostCLI.diagnose(subcommand, "the plugin wrote nothing on stderr")
            return
        }
        HostCLI.diagnose(subcommand, "the plugin's stderr (its last \(lines.count) lines):")
        for line in lines { Console.err("  " + line) }
    }

    /// Why `--out DIR` cannot take traces, or nil when it can: an existing path must be
    /// a writable directory; a missing one needs its nearest existing parent to be a
    /// writable directory (it is created when the first trace is written). Nothing is
    /// created here.
    static func outputProblem(_ path: String) -> String? {
        guard !path.isEmpty else { return "--out: an empty path" }
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return "--out: \(path) exists and is not a directory" }
            guard fm.isWritableFile(atPath: path) else { return "--out: cannot write in \(path)" }
            return nil
        }
        var parent = (path as NSString).deletingLastPathComponent
        while !parent.isEmpty, !fm.fileExists(atPath: parent, isDirectory: &isDirectory) {
            let up = (parent as NSString).deletingLastPathComponent
            if up == parent { break }
            parent = up
        }
        if parent.isEmpty {
            parent = fm.currentDirectoryPath
            _ = fm.fileExists(atPath: parent, isDirectory: &isDirectory)
        }
        guard isDirectory.boolValue else { return "--out: \(parent) is not a directory, so \(path) cannot be made" }
        guard fm.isWritableFile(atPath: parent) else {
            return "--out: cannot create \(path): \(parent) is not writable"
        }
        return nil
    }

    /// The plugin-level timeout given with `--timeout`, or the level's default.
    static func replyTimeout(_ s: Settings) -> Double { s.timeout ?? PluginDriver.defaultTimeout }

    /// The system-level timeout given with `--timeout`, or the level's default.
    static func answerTimeout(_ s: Settings) -> Duration {
        guard let seconds = s.timeout else { return SystemSimulation.Options.defaultAnswerTimeout }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
