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
        let run = try await runProgram(Binaries.plugin, [], env: ["BSP_FAULT": "no-such-fault"])
        #expect(run.status == 64)
        let listing = run.stderr
        let line = try #require(listing.split(separator: "\n").first { $0.contains("known: ") })
        let names = line[line.range(of: "known: ")!.upperBound...].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        return Set(names)
    }

    @Test func everyFaultIsClassified() async throws {
        let known = try await knownFaults()
        let mutants = Set(ConformanceMutants.all.map(\.fault))
        let classified = mutants.union(ConformanceMutants.hostFaults)
        #expect(known.count >= 29)
        #expect(
            classified == known,
            "unclassified: \(known.subtracting(classified)); unknown: \(classified.subtracting(known))")
        #expect(mutants.isDisjoint(with: ConformanceMutants.hostFaults))
        for m in ConformanceMutants.all { #expect(!m.checks.isEmpty) }
        for m in ConformanceMutants.all {
            for name in m.checks {
                #expect(ConformanceCatalogue.named(name) != nil, "\(m.fault) names unknown check \(name)")
            }
        }
    }

    /// Runs the whole catalogue (each check under its first profile) once per
    /// mutant; every listed check must fail, with a reason and the replies that
    /// differ. The score is shown when it is not full.
    @Test func everyMutantIsCaught() async throws {
        var caught = 0
        var lines: [String] = []
        for mutant in ConformanceMutants.all {
            let (missed, line) = try await Self.score(mutant)
            if missed.isEmpty {
                caught += 1
            } else {
                Issue.record("fault \(mutant.fault) was not caught by \(missed.joined(separator: ", "))")
            }
            lines.append(line)
        }
        let total = ConformanceMutants.all.count
        // The score and what caught each mutant, shown when a mutant is missed.
        let score = "mutation score: \(caught)/\(total) (\(total == 0 ? 0 : caught * 100 / total)%)"
        #expect(caught == total, "\(score + "\n" + lines.joined(separator: "\n"))")
    }

    /// Runs the catalogue against one mutant: the listed checks that did not fail, and a
    /// line for the score.
    static func score(_ mutant: ConformanceMutants.Mutant) async throws -> (missed: [String], line: String) {
        let outcomes = try await ConformanceHarness.run(
            ConformanceHarness.onePerCheck, environment: ["BSP_FAULT": mutant.fault])
        let failed = outcomes.filter { $0.status == .failed }
        var missed: [String] = []
        for name in mutant.checks {
            guard let o = failed.first(where: { $0.name == name }) else {
                missed.append(name)
                continue
            }
            // It says why: a reason, and replies that do not match (or a note: a violation, a hang).
            #expect(o.reason?.isEmpty == false, "\(mutant.fault): \(name) failed without a reason")
            let f = try #require(o.failure)
            let unmatched = f.matched.count < max(f.expected.count, f.actual.count)
            #expect(unmatched || f.note != nil, "\(mutant.fault): \(name) shows no difference")
            #expect(o.failureReport.contains("FAIL \(name)"))
        }
        let first = failed.first { mutant.checks.contains($0.name) }
        let line =
            "  \(mutant.fault): \(missed.isEmpty ? "caught" : "MISSED") by \(mutant.checks.joined(separator: ", "))"
            + " (\(failed.count) of \(outcomes.count) checks failed)"
            + (first.map { "; \($0.name): \($0.reason ?? "")" } ?? "")
        return (missed, line)
    }
}
