import Foundation
import HostProtocol

/// The rounds of one `plugin-host bench` run: each measurement taken `rounds` times,
/// round after round (every stage of round 1, then every stage of round 2, ...), so that
/// a disturbance that lasts a few seconds hits one round of each figure, not every sample
/// of one figure. The report shows the round whose sequential ratio to the C floor is the
/// median whole, and for every figure its minimum, median and maximum over the rounds,
/// with the machine's state before and after.
package struct BenchRounds {
    package var reports: [BenchReport]
    package var before: MachineState
    package var after: MachineState

    package init(reports: [BenchReport], before: MachineState, after: MachineState) {
        self.reports = reports
        self.before = before
        self.after = after
    }

    /// The figure that chooses the round shown whole.
    package static let keyFigure = "sequential.cancelCancelListener.ratioToCFloor"

    /// Rounds further apart than this (max / min - 1) on the key figure get a warning.
    package static let disagreementThreshold = 0.2

    /// The round shown whole (0-based).
    package var medianRound: Int {
        Spread.medianIndex(reports.map { Self.figures(of: $0).first { $0.name == Self.keyFigure }?.value ?? 0 }) ?? 0
    }

    /// Every figure of a round by name: ratios to the floors, the absolute figures beside them.
    package static func figures(of r: BenchReport) -> [(name: String, value: Double)] {
        var out: [(String, Double)] = [
            (keyFigure, r.sequentialRatioToC), ("sequential.cancelCancelListener.ratioToFloor", r.sequentialRatio),
            ("sequential.completeBgTask.ratioToCFloor", r.sequential.complete.p50 / r.cFloor.p50),
            ("asyncCall.ratioToCFloor", r.asyncCall.p50 / r.cFloor.p50), ("cFloor.p50", r.cFloor.p50),
            ("floor.p50", r.floor.p50), ("sequential.cancelCancelListener.p50", r.sequential.cancel.p50),
            // What the invoke path adds to a round trip, in µs: steadier than the ratio, whose
            // floor is mostly wake-up latency that moves with the machine (docs/benchmarks.md).
            ("sequential.cancelCancelListener.aboveCFloor", r.sequential.cancel.p50 - r.cFloor.p50),
        ]
        for p in r.pipelined {
            out += [
                ("pipelined.\(p.window).ratioToCFloor", p.ratioToCFloor),
                ("pipelined.\(p.window).invokesPerSecond", p.invokes),
                ("pipelined.\(p.window).cFloorLinesPerSecond", p.cFloor),
            ]
        }
        out.append(("startup.p50", r.startup.p50 / 1000))
        if let last = r.memory.last { out.append(("memory.rssKB", Double(last.rssKB))) }
        if let fuzz = r.fuzz { out.append(("fuzz.stepsPerSecond", Double(fuzz.steps) / max(fuzz.seconds, 1e-9))) }
        for f in r.simulatedTime {
            out += [
                ("systemLevel.\(f.plugin).\(f.jobs).deviceDaysPerSecond", f.deviceDaysPerSecond),
                ("systemLevel.\(f.plugin).\(f.jobs).stepsPerSecond", f.stepsPerSecond),
            ]
        }
        return out
    }

    /// Each figure's values over the rounds (in round order) and their spread, in the
    /// order of the first round; a figure missing from a round is left out of it.
    package static func spreads(_ rounds: [[(name: String, value: Double)]]) -> [(
        name: String, values: [Double], spread: Spread
    )] {
        guard let first = rounds.first else { return [] }
        return first.compactMap { figure in
            let values = rounds.compactMap { round in round.first { $0.name == figure.name }?.value }
            return Spread(values).map { (figure.name, values, $0) }
        }
    }

    /// The rounds' spreads.
    package var spreads: [(name: String, values: [Double], spread: Spread)] {
        Self.spreads(reports.map(Self.figures))
    }

    /// Why the figures may not reproduce: a busy machine before or after, rounds that
    /// disagree on the key figure.
    package var warnings: [String] {
        Self.warnings(before: before, after: after, key: spreads.first { $0.name == Self.keyFigure }?.spread)
    }

    /// The warnings for a run with these machine states and this spread of the key figure.
    package static func warnings(before: MachineState, after: MachineState, key: Spread?) -> [String] {
        var out: [String] = []
        if let w = before.busyWarning() { out.append("the machine was busy before the run: \(w)") }
        if let w = after.busyWarning() { out.append("the machine was busy after the run: \(w)") }
        if let key, key.relativeRange > disagreementThreshold {
            out.append(
                String(
                    format:
                        "the rounds disagree: sequential p50 / C floor from %.2fx to %.2fx (more than %.0f %% apart)",
                    key.min, key.max, disagreementThreshold * 100))
        }
        return out
    }

    /// A figure for the JSON: 3 decimals below 1000, whole above; null when not finite
    /// (a ratio to a floor of 0).
    static func rounded(_ x: Double) -> JSONValue {
        guard x.isFinite else { return .null }
        return .number(abs(x) >= 1000 ? x.rounded() : (x * 1000).rounded() / 1000)
    }

    /// The median round's JSON (today's members, unchanged) with `rounds` added and
    /// `machine` given `before`, `after`, `processes` and `warnings`.
    package var json: JSONValue {
        let shown = medianRound
        guard case .object(var o) = reports[shown].json else { return reports[shown].json }
        o["rounds"] = [
            "count": .number(reports.count), "shown": .number(shown + 1), "chosenBy": .string(Self.keyFigure),
            "figures": .array(
                spreads.map {
                    [
                        "name": .string($0.name), "min": Self.rounded($0.spread.min),
                        "median": Self.rounded($0.spread.median), "max": Self.rounded($0.spread.max),
                        "values": .array($0.values.map(Self.rounded)),
                    ]
                }),
        ]
        if case .object(var machine) = o["machine"] ?? .null {
            machine["before"] = before.json
            machine["after"] = after.json
            machine["processes"] = .array(
                reports.enumerated().map { i, r in
                    ["round": .number(i + 1), "placement": .array(r.processCPUs.map(\.json))]
                })
            machine["warnings"] = .array(warnings.map { .string($0) })
            o["machine"] = .object(machine)
        }
        return .object(o)
    }

    /// The median round's table, then the spread of every figure and the machine's state.
    package var text: String {
        func load(_ m: MachineState) -> String {
            let busy = m.busyCPUs.map { String(format: ", %.2f of %d CPUs busy", $0, m.cpus) } ?? ""
            return "load " + m.load.map { String(format: "%.2f", $0) }.joined(separator: " ") + busy
        }
        var lines = [
            reports[medianRound].text, "",
            "rounds: \(reports.count); the table above is round \(medianRound + 1), the one with the median "
                + "sequential p50 / C floor. Every figure over the rounds, min / median / max:",
        ]
        for s in spreads {
            lines.append(
                "  " + s.name.padding(toLength: 48, withPad: " ", startingAt: 0)
                    + [s.spread.min, s.spread.median, s.spread.max].map { Self.format($0) }.joined(separator: " / "))
        }
        lines.append("machine before: \(load(before)); after: \(load(after))")
        for (i, r) in reports.enumerated() where !r.processCPUs.isEmpty {
            lines.append("  round \(i + 1): " + r.processCPUs.map(\.text).joined(separator: "; "))
        }
        return lines.joined(separator: "\n")
    }

    static func format(_ x: Double) -> String {
        abs(x) >= 1000 ? String(format: "%.0f", x) : String(format: "%.3g", x)
    }
}
