import PluginBench
import Testing

/// The rounds and statistics of `plugin-host bench` (issue 25): pure functions over
/// figures, machine states and /proc texts; no timing is measured or asserted.
@Suite("bench rounds and statistics")
struct BenchRoundsTests {
    @Test func spreadIsMinMedianMax() throws {
        #expect(Spread([1.2, 1.05, 1.4]) == Spread(min: 1.05, median: 1.2, max: 1.4))
        #expect(Spread([3, 1, 10, 2]) == Spread(min: 1, median: 2.5, max: 10))
        #expect(Spread([7]) == Spread(min: 7, median: 7, max: 7))
        #expect(Spread([]) == nil)
        let s = try #require(Spread([1.0, 1.3]))
        #expect(abs(s.relativeRange - 0.3) < 1e-12)
        #expect(Spread(min: 0, median: 1, max: 2).relativeRange == 0)
    }

    /// The round shown whole is the one holding the median (the lower middle for an even
    /// count); ties go to the earlier round.
    @Test func medianRoundIndex() {
        #expect(Spread.medianIndex([1.6, 1.1, 1.3]) == 2)
        #expect(Spread.medianIndex([1.6, 1.1, 1.3, 1.2]) == 3)
        #expect(Spread.medianIndex([2, 2, 2]) == 1)
        #expect(Spread.medianIndex([5]) == 0)
        #expect(Spread.medianIndex([]) == nil)
    }

    /// Each figure's values in round order; a figure missing from a round is left out of
    /// it, one absent from the first round is not reported.
    @Test func spreadsPerFigure() {
        let rounds: [[(name: String, value: Double)]] = [
            [("a", 1.5), ("b", 100)], [("a", 1.2), ("b", 300), ("c", 9)], [("a", 1.9)],
        ]
        let s = BenchRounds.spreads(rounds)
        #expect(s.map(\.name) == ["a", "b"])
        #expect(s[0].values == [1.5, 1.2, 1.9] && s[0].spread == Spread(min: 1.2, median: 1.5, max: 1.9))
        #expect(s[1].values == [100, 300] && s[1].spread == Spread(min: 100, median: 200, max: 300))
        #expect(BenchRounds.spreads([]).isEmpty)
    }

    static let quiet = MachineState(cpus: 2, load: [0.1, 0.2, 0.3], busyCPUs: 0.05)

    @Test func busyWarningThresholds() {
        #expect(Self.quiet.busyWarning() == nil)
        let loaded = MachineState(cpus: 2, load: [0.5, 0, 0], busyCPUs: 0)
        #expect(loaded.busyWarning()?.contains("1-minute load average 0.50 (threshold 0.50)") == true)
        let busy = MachineState(cpus: 2, load: [0.2, 0, 0], busyCPUs: 0.3)
        #expect(busy.busyWarning()?.contains("other work took 0.30 of 2 CPUs (threshold 0.25)") == true)
        #expect(busy.busyWarning(ownCPUs: 0.1) == nil)
        #expect(MachineState(cpus: 2, load: [], busyCPUs: nil).busyWarning() == nil)
    }

    @Test func warningsOfARun() {
        #expect(BenchRounds.warnings(before: Self.quiet, after: Self.quiet, key: Spread([1.1, 1.2, 1.3])).isEmpty)
        let apart = BenchRounds.warnings(before: Self.quiet, after: Self.quiet, key: Spread([1.1, 1.2, 1.5]))
        #expect(apart == ["the rounds disagree: sequential p50 / C floor from 1.10x to 1.50x (more than 20 % apart)"])
        let busy = MachineState(cpus: 2, load: [8.95, 20, 15], busyCPUs: 2)
        let w = BenchRounds.warnings(before: busy, after: Self.quiet, key: nil)
        #expect(w.count == 1 && w[0].hasPrefix("the machine was busy before the run: 1-minute load average 8.95"))
    }

    @Test func procTexts() {
        #expect(MachineState.loadAverages("8.95 20.25 15.88 7/131 1795\n") == [8.95, 20.25, 15.88])
        #expect(MachineState.loadAverages("") == [])
        let stat = "cpu  100 5 50 800 20 0 5 0 0 0\ncpu0 50 2 25 400 10 0 2 0 0 0\n"
        let t = MachineState.cpuTimes(procStat: stat)
        #expect(t?.busy == 160 && t?.total == 980)
        #expect(MachineState.cpuTimes(procStat: "intr 1 2") == nil)
        #expect(ProcessCPU.allowedList(status: "Name:\tx\nCpus_allowed:\t2\nCpus_allowed_list:\t1\n") == "1")
        #expect(ProcessCPU.allowedList(status: "Name:\tx\n") == nil)
        // A command name with spaces and a parenthesis; field 39 is the last CPU.
        let fields = (3...52).map { $0 == 39 ? "1" : "0" }.joined(separator: " ")
        #expect(ProcessCPU.lastCPU(stat: "4242 (a b) c) " + fields) == 1)
        #expect(ProcessCPU.lastCPU(stat: "4242 (short) S 1 2") == nil)
    }
}
