import Foundation
import HostProtocol

/// `docs/conformance.md`, generated from the catalogue (`plugin-host conformance
/// --list --format markdown`); a test fails when the committed file differs.
package enum ConformanceCatalogueDoc {
    /// The whole page.
    package static func markdown(_ checks: [ConformanceCheck] = ConformanceCatalogue.all) -> String {
        var out = intro(checks)
        out += "\n## Catalogue\n\n| check | § | profiles | rule |\n| --- | --- | --- | --- |\n"
        for c in checks {
            out +=
                "| [`\(c.name)`](#\(anchor(c.name))) | \(c.section) | "
                + "\(c.profiles.map(\.rawValue).joined(separator: ", ")) | \(cell(c.rule)) |\n"
        }
        out += "\n## The checks\n"
        for c in checks { out += "\n" + detail(c) }
        out += "\n" + faults()
        return out
    }

    private static func detail(_ c: ConformanceCheck) -> String {
        var out = "### `\(c.name)`\n\n"
        out += "- rule (§\(c.section)): \(c.rule)\n"
        out += "- profiles: \(c.profiles.map(\.rawValue).joined(separator: ", "))\n"
        if !c.flags.isEmpty { out += "- plugin flags: `\(c.flags.joined(separator: " "))`\n" }
        if c.inputFraming == .lsp || c.outputFraming == .lsp {
            out += "- framing: input \(c.inputFraming.rawValue), output \(c.outputFraming.rawValue)\n"
        }
        if !c.requires.isEmpty {
            out += "- needs the extension: \(c.requires.map { "`\($0)`" }.joined(separator: ", "))\n"
        }
        if c.judgesTextForm { out += "- judges the text of every frame: compact, object keys sorted\n" }
        if c.runsTwice { out += "- runs twice, in two processes: both stdouts must be identical\n" }
        let acceptance = c.acceptance
        let strictSteps = c.profiles.contains { p in c.script(p).contains(where: \.judgesEveryNotification) }
        out +=
            "- accepts: members the patterns do not name; notifications of methods the contract does not name"
            + (strictSteps ? " (except in a step that says \"nothing else\")" : "")
        out += acceptance.isEmpty ? "\n" : "; and:\n" + acceptance.map { "  - \($0)\n" }.joined()
        if let plist = c.infoPlist { out += "- `--info-plist` with:\n\n```xml\n\(plist)```\n" }
        let variants: [(String?, Profile)] =
            c.differsByProfile ? c.profiles.map { ("under `\($0.rawValue)`:", $0) } : [(nil, c.profiles[0])]
        for (title, profile) in variants {
            if let title { out += "\n\(title)\n" }
            out += "\n```text\n"
            let steps = c.script(profile)
            for (i, step) in steps.enumerated() {
                if steps.count > 1 { out += "# step \(i + 1)\n" }
                out += step.description + "\n"
            }
            out += "```\n"
        }
        return out
    }

    private static func faults() -> String {
        var out = """
            ## Proof that the checks can fail: `BSP_FAULT`

            `background-service-plugin` has a fault-injection switch for testing only: the
            environment variable `BSP_FAULT=NAME[,NAME]`. Each fault below breaks one rule
            family; `Tests/PluginConformanceTests/ConformanceMutationTests.swift` runs the suite
            against each and requires the listed checks to fail with a reason (mutation
            score: faults caught / faults injected, required 100%). The faults
            \(ConformanceMutants.hostFaults.sorted().map { "`\($0)`" }.joined(separator: ", ")) \
            imitate a broken process for host
            tests and are not contract mutants. The last five put back bugs from the real
            plugin's history (`docs/rules.md`, "Mutants from the real plugin's bug history").

            Mutation score: \(ConformanceMutants.all.count)/\(ConformanceMutants.all.count) (100%): each of the \
            \(ConformanceMutants.all.count) mutants is killed by
            the checks named beside it (`everyMutantIsCaught` fails otherwise).

            | fault | breaks | caught by |
            | --- | --- | --- |

            """
        for m in ConformanceMutants.all {
            out += "| `\(m.fault)` | \(m.breaks) | \(m.checks.map { "`\($0)`" }.joined(separator: ", ")) |\n"
        }
        return out
    }

    /// A GitHub-style heading anchor for a check name (`jsonrpc.batch.empty` → `jsonrpcbatchempty`).
    static func anchor(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    private static func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
}
