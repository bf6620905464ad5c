import Foundation
import HostProtocol
import HostTestSupport
import PluginHost
import Testing

@testable import PluginConformance

/// Proof that the checks can fail: the suite against each `BSP_FAULT` mutant.
@Suite("conformance mutation score")
struct ConformanceMutationTests {
    /// The fault names the plugin binary knows, from its usage error for an unknown one.
    func knownFaults() async throws -> Set<String> {
        let listing = try await onThread { () -> String in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Binaries.plugin)
            p.environment = ProcessInfo.processInfo.environment.merging(["BSP_FAULT": "no-such-fault"]) { $1 }
            let err = Pipe()
            p.standardError = err
            p.standardOutput = FileHandle.nullDevice
            p.standardInput = FileHandle.nullDevice
            try p.run()
            let data = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            #expect(p.terminationStatus == 64)
            return String(decoding: data, as: UTF8.self)
        }
        let line = try #require(listing.split(separator: "\n").first { $0.contains("known: ") })
        let names = line[line.range(of: "known: ")!.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return Set(names)
    }

    /// Mutants from the real plugin's bug history (issue 14 item 4), added to the plugin before
    /// the suite's catalogue (`ConformanceMutants.all`) lists them, each with the existing checks
    /// that already kill it, or none: awaiting issue 14's checks. To flip one, move it into
    /// `ConformanceMutants.all` with its killing checks and delete it here.
    static let historyMutants: [ConformanceMutants.Mutant] = [
        .init(
            fault: "complete-both-references", breaks: "exactly-once (expiration)",
            checks: ["task.expiration.order"]),
        .init(
            fault: "safety-timer-rejects", breaks: "safety-timer resolves the pending invoke",
            checks: ["timer.refresh.fires-at-deadline"]),
        .init(
            fault: "reschedule-without-task", breaks: "completeBgTask order (no task, no reschedule)",
            checks: ["invoke.completeBgTask.no-task-no-reschedule"]),
        .init(
            fault: "stop-no-reject-without-task", breaks: "stopKeepalive rejects even without a task",
            checks: ["invoke.stopKeepalive.rejects-without-task"]),
        // Awaiting issue 14's checks: a second answer only happens in a cross-queue race, so a
        // check needs `--dispatch tauri` and a chosen schedule (`plugin/dispatchSchedule`).
        .init(fault: "second-answer-written", breaks: "invoke.answered-once", checks: []),
    ]

    @Test func everyFaultIsClassified() async throws {
        let known = try await knownFaults()
        let mutants = Set(ConformanceMutants.all.map(\.fault))
        let history = Set(Self.historyMutants.map(\.fault))
        let classified = mutants.union(ConformanceMutants.hostFaults).union(history)
        #expect(known.count >= 24)
        #expect(
            classified == known,
            "unclassified: \(known.subtracting(classified)); unknown: \(classified.subtracting(known))")
        #expect(mutants.isDisjoint(with: ConformanceMutants.hostFaults))
        #expect(history.isDisjoint(with: mutants.union(ConformanceMutants.hostFaults)))
        for m in ConformanceMutants.all { #expect(!m.checks.isEmpty) }
        for m in ConformanceMutants.all + Self.historyMutants {
            for name in m.checks { #expect(ConformanceCatalogue.named(name) != nil, "\(m.fault) names unknown check \(name)") }
        }
    }

    /// Runs the whole catalogue (each check under its first profile) once per
    /// mutant; every listed check must fail, with a reason and the replies that
    /// differ. Prints the score.
    @Test func everyMutantIsCaught() async throws {
        var caught = 0
        var lines: [String] = []
        for mutant in ConformanceMutants.all {
            let (_, missed, line) = try await Self.score(mutant)
            if missed.isEmpty { caught += 1 } else { Issue.record("fault \(mutant.fault) was not caught by \(missed.joined(separator: ", "))") }
            lines.append(line)
        }
        let total = ConformanceMutants.all.count
        print("mutation score: \(caught)/\(total) (\(total == 0 ? 0 : caught * 100 / total)%)\n" + lines.joined(separator: "\n"))
        #expect(caught == total)
    }

    /// The history mutants: those with checks must be caught by them; those awaiting issue
    /// 14's checks are caught by no check yet (a known issue: the day one is caught, this
    /// test fails with "known issue was not recorded", the signal to flip it).
    @Test func historyMutantsAreCaughtOrAwaitChecks() async throws {
        for mutant in Self.historyMutants {
            let (caughtByAny, missed, line) = try await Self.score(mutant)
            print(line)
            if mutant.checks.isEmpty {
                withKnownIssue("\(mutant.fault): awaiting issue 14's checks") {
                    if !caughtByAny { Issue.record("\(mutant.fault) is caught by no check yet") }
                }
            } else if !missed.isEmpty {
                Issue.record("fault \(mutant.fault) was not caught by \(missed.joined(separator: ", "))")
            }
        }
    }

    /// Runs the catalogue against one mutant: whether any check failed, the listed checks
    /// that did not, and a line for the score.
    static func score(
        _ mutant: ConformanceMutants.Mutant
    ) async throws -> (caughtByAny: Bool, missed: [String], line: String) {
        let outcomes = try await ConformanceHarness.run(
            ConformanceHarness.onePerCheck, environment: ["BSP_FAULT": mutant.fault])
        let failed = outcomes.filter { !$0.passed }
        guard !mutant.checks.isEmpty else {
            let line = "  \(mutant.fault): awaiting issue 14's checks "
                + "(\(failed.count) of \(outcomes.count) checks failed)"
            return (!failed.isEmpty, [], line)
        }
        var missed: [String] = []
        for name in mutant.checks {
            guard let o = failed.first(where: { $0.name == name }) else {
                missed.append(name)
                continue
            }
            // It says why: a reason, and the expected and actual replies (or a note) that differ.
            #expect(o.reason?.isEmpty == false, "\(mutant.fault): \(name) failed without a reason")
            let f = try #require(o.failure)
            #expect(f.expected != f.actual || f.note != nil, "\(mutant.fault): \(name) shows no difference")
            #expect(o.failureReport.contains("FAIL \(name)"))
        }
        let first = failed.first { mutant.checks.contains($0.name) }
        let line = "  \(mutant.fault): \(missed.isEmpty ? "caught" : "MISSED") by \(mutant.checks.joined(separator: ", ")) (\(failed.count) of \(outcomes.count) checks failed)\(first.map { "; \($0.name): \($0.reason ?? "")" } ?? "")"
        return (!failed.isEmpty, missed, line)
    }
}
