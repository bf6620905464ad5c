import Foundation
import HostProtocol

/// The soak's verdict and its report, as text and as JSON.
extension SoakRunner {
    /// Why the soak failed; empty when it passed.
    package static func judge(_ r: Report, _ s: Settings) -> [String] {
        var why: [String] = []
        switch r.pluginFailure?.kind {
        case .didNotStart?: why.append("the plugin did not start: \(r.pluginFailure!.detail)")
        case .brokeTransport?: why.append("the plugin broke the transport: \(r.pluginFailure!.detail)")
        case nil: break
        }
        if let error = r.error { why.append(error) }
        let growth = r.growth(warmUpRounds: s.warmUpRounds)
        if growth > s.growthLimitKB {
            why.append("plugin VmRSS grew by \(growth) KiB after the warm-up (limit \(s.growthLimitKB) KiB)")
        }
        let hostGrowth = r.hostGrowth(warmUpRounds: s.warmUpRounds)
        if hostGrowth > s.growthLimitKB {
            why.append("host VmRSS grew by \(hostGrowth) KiB after the warm-up (limit \(s.growthLimitKB) KiB)")
        }
        if r.invokeMismatches > 0 {
            why.append("\(r.invokeMismatches) invoke answers differed from the script: \(r.firstMismatches)")
        }
        if r.fuzzViolations > 0 { why.append("\(r.fuzzViolations) fuzz-case violations: \(r.firstViolations)") }
        for f in r.faults {
            if !f.failures.isEmpty {
                why.append("fault \(f.kind.rawValue): \(f.failures.count) trials failed: \(f.failures.prefix(2))")
            }
            if !f.noticed.sorted.isEmpty, f.noticed.p99 > s.faultBudgetMs {
                why.append(
                    String(
                        format: "fault %@: p99 %.1f ms over the %.0f ms budget", f.kind.rawValue, f.noticed.p99,
                        s.faultBudgetMs))
            }
        }
        return why
    }

    /// The report as text, the verdict last.
    package static func textReport(_ r: Report, _ s: Settings, verdict: [String]) -> String {
        var lines = [
            "soak: \(s.invokes) invokes, \(s.fuzzCases) fuzz cases against one plugin process (\(s.plugin))", "",
        ]
        lines.append(
            "round   invokes  requests  fuzz cases  seconds  plugin RSS KiB  plugin peak KiB  host RSS KiB  host "
                + "pending"
        )
        for x in r.samples {
            lines.append(
                String(
                    format: "%5d %9d %9d %11d %8.1f %15d %16d %13d %13d%@", x.round, x.invokes, x.requests, x.fuzzCases,
                    x.seconds, x.plugin.rss, x.plugin.peak,
                    x.host.rss, x.hostPending, x.round == s.warmUpRounds ? "   <- baseline (end of warm-up)" : ""))
        }
        lines.append("")
        if s.warmUpRounds > 0, r.samples.count > s.warmUpRounds {
            let base = r.samples[s.warmUpRounds - 1].plugin.rss
            let last = r.samples.last!.plugin.rss
            lines.append(
                "plugin VmRSS after warm-up: \(base) KiB; at the end: \(last) KiB; largest growth: "
                    + "\(r.growth(warmUpRounds: s.warmUpRounds)) KiB (limit \(s.growthLimitKB) KiB)"
            )
            let hostBase = r.samples[s.warmUpRounds - 1].host.rss
            lines.append(
                "host VmRSS after warm-up: \(hostBase) KiB; at the end: \(r.samples.last!.host.rss) KiB; largest "
                    + "growth: \(r.hostGrowth(warmUpRounds: s.warmUpRounds)) KiB (limit \(s.growthLimitKB) KiB)"
            )
        }
        lines.append(
            "invoke answers differing from the script: \(r.invokeMismatches); fuzz-case violations: \(r.fuzzViolations)"
        )
        lines.append(
            "pending at the end: host \(r.hostPendingAtEnd); plugin \(r.pluginPendingAtEnd); old ids still pending in "
                + "the plugin: \(r.leakedPluginIDs) of \(r.probedIDs) probed"
        )
        if r.stderrLines > 0 { lines.append("the plugin wrote \(r.stderrLines) lines on stderr (not shown)") }
        if !r.faults.isEmpty {
            lines.append("")
            lines.append("fault latency (ms)    trials     p50     p99     max   reaped p99   measures")
            for f in r.faults {
                let name = f.kind.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
                lines.append(
                    name
                        + String(
                            format: " %9d %7.2f %7.2f %7.2f %12.2f   %@", f.noticed.sorted.count, f.noticed.p50,
                            f.noticed.p99, f.noticed.max,
                            f.reaped.p99, f.kind.measures))
            }
        }
        lines.append("")
        lines.append(verdict.isEmpty ? "PASS" : "FAIL:\n  " + verdict.joined(separator: "\n  "))
        return lines.joined(separator: "\n")
    }

    /// The report as one JSON object.
    package static func jsonReport(_ r: Report, _ s: Settings, verdict: [String]) -> String {
        let samples: [JSONValue] = r.samples.map { x in
            [
                "round": .number(x.round), "invokes": .number(x.invokes), "requests": .number(x.requests),
                "fuzzCases": .number(x.fuzzCases),
                "seconds": .number(x.seconds), "pluginRSSKiB": .number(x.plugin.rss),
                "pluginPeakKiB": .number(x.plugin.peak),
                "hostRSSKiB": .number(x.host.rss), "hostPending": .number(x.hostPending),
            ]
        }
        let faults: [JSONValue] = r.faults.map { f in
            [
                "kind": .string(f.kind.rawValue), "trials": .number(f.noticed.sorted.count),
                "p50Ms": .number(f.noticed.p50),
                "p99Ms": .number(f.noticed.p99), "maxMs": .number(f.noticed.max), "reapedP99Ms": .number(f.reaped.p99),
                "failures": .array(f.failures.map { .string($0) }),
            ]
        }
        let value: JSONValue = [
            "invokes": .number(s.invokes), "fuzzCases": .number(s.fuzzCases), "warmUpRounds": .number(s.warmUpRounds),

            "growthKiB": .number(r.growth(warmUpRounds: s.warmUpRounds)),
            "hostGrowthKiB": .number(r.hostGrowth(warmUpRounds: s.warmUpRounds)),
            "growthLimitKiB": .number(s.growthLimitKB),
            "samples": .array(samples), "invokeMismatches": .number(r.invokeMismatches),
            "fuzzViolations": .number(r.fuzzViolations),
            "hostPendingAtEnd": .number(r.hostPendingAtEnd), "pluginPendingAtEnd": .string(r.pluginPendingAtEnd),
            "leakedPluginIDs": .number(r.leakedPluginIDs), "probedIDs": .number(r.probedIDs), "faults": .array(faults),
            "pass": .bool(verdict.isEmpty), "failures": .array(verdict.map { .string($0) }),
            "pluginFailure": r.pluginFailure.map { ["kind": .string($0.kind.rawValue), "detail": .string($0.detail)] }
                ?? .null,
            "stderrLines": .number(r.stderrLines),
        ]
        return value.description
    }
}
