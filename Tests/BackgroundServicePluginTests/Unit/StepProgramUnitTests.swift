import Foundation
import HostProtocol
import HostTestSupport
import Testing

@testable import BackgroundServicePlugin

/// Step programs: how a run steps through them, and the mutations made to them.
@Suite("unit: step programs and mutations")
struct StepProgramUnitTests {
    /// A toy frame and a toy writer of programs.
    final class Log { var lines: [String] = [] }
    struct Writer: StepWriting { typealias Frame = Log }
    static let w = Writer()

    /// `a; if flag { b; helper() { c; d } } else { e }; guard stop else return; f`.
    static func program(flag: Bool, stop: Bool) -> StepProgram<Log> {
        StepProgram(
            name: "toy",
            steps: [
                w.step("a") { $0.lines.append("a") },
                w.when(
                    "if flag",
                    {
                        $0.lines.append("if")
                        return flag
                    },
                    then: {
                        w.step("b") { $0.lines.append("b") }
                        w.call("helper()") {
                            w.step("c") { $0.lines.append("c") }
                            w.step("d") { $0.lines.append("d") }
                        }
                    },
                    else: {
                        w.step("e") { $0.lines.append("e") }
                    }),
                w.exitUnless("guard stop") { _ in !stop },
                w.step("f") { $0.lines.append("f") },
            ])
    }

    /// One `step()` runs one statement; a branch's condition is a step, a call is not; the
    /// next step's path names the helper it is in; a failed guard ends the run.
    @Test func steppingThroughAProgram() {
        let log = Log()
        let run = StepRun(Self.program(flag: true, stop: false), frame: log)
        var order: [String] = []
        while let next = run.nextStep {
            order.append(next)
            run.step()
        }
        #expect(run.isFinished)
        #expect(order == ["a", "if flag", "b", "helper() › c", "helper() › d", "guard stop", "f"])
        #expect(log.lines == ["a", "if", "b", "c", "d", "f"])
        let stopped = Log()
        StepRun(Self.program(flag: false, stop: true), frame: stopped).runToEnd()
        #expect(stopped.lines == ["a", "if", "e"])
    }

    /// `direct` (the steps composed into one closure, for `--dispatch serial`) runs the same
    /// statements as stepping, and its trace names the step running, helpers included.
    @Test(arguments: [(true, false), (false, false), (true, true), (false, true)])
    func directRunsLikeStepping(flag: Bool, stop: Bool) {
        let stepped = Log()
        let direct = Log()
        StepRun(Self.program(flag: flag, stop: stop), frame: stepped).runToEnd()
        let trace = StepTrace()
        let completed = Self.program(flag: flag, stop: stop).direct(direct, trace)
        #expect(direct.lines == stepped.lines)
        #expect(completed == !stop)
        #expect(trace.label == (stop ? "guard stop" : "f"))
        let inHelper = StepTrace()
        let probe = StepProgram<Log>(
            name: "probe",
            steps: [
                Self.w.call("cleanup()") { Self.w.step("pendingCancelInvoke = nil") { _ in } }
            ])
        _ = probe.direct(Log(), inHelper)
        #expect(inHelper.label == "cleanup() › pendingCancelInvoke = nil")
    }

    /// Each kind of change, with the number of steps it changed.
    @Test func mutations() {
        func lines(_ mutation: StepMutation<Log>, flag: Bool = true) -> ([String], Int) {
            var matched: [Int] = []
            let log = Log()
            let program = Self.program(flag: flag, stop: false).applying([mutation], matched: &matched)
            StepRun(program, frame: log).runToEnd()
            return (log.lines, matched[0])
        }
        let x = Self.w.step("x") { $0.lines.append("x") }
        #expect(lines(.init(.drop, ["c"])) == (["a", "if", "b", "d", "f"], 1))
        #expect(lines(.init(.duplicate, ["d", "a"])) == (["a", "a", "if", "b", "c", "d", "d", "f"], 2))
        #expect(lines(.init(.replace(x), ["b"])) == (["a", "if", "x", "c", "d", "f"], 1))
        #expect(lines(.init(.insertAfter([x]), ["helper()"])) == (["a", "if", "b", "c", "d", "x", "f"], 1))
        #expect(lines(.init(.moveAfter("d"), ["c"])) == (["a", "if", "b", "d", "c", "f"], 1))
        #expect(lines(.init(.unwrap, ["if flag"]), flag: false) == (["a", "b", "c", "d", "f"], 1))
        #expect(lines(.init(.guarded("if never", { _ in false }), ["f"])) == (["a", "if", "b", "c", "d"], 1))
        #expect(lines(.init(.drop, ["c"], in: ["other"])) == (["a", "if", "b", "c", "d", "f"], 0))
        #expect(lines(.init(.drop, ["no such step"])).1 == 0)
    }

    /// Every mutant of the port changes at least one step under some profile (no mutation
    /// names a step that is not there; `drop-superseded` acts on a `strict`-only step).
    @Test(arguments: Fault.allCases)
    func everyPortMutationApplies(fault: Fault) throws {
        var matches: [[Int]] = []
        for profile in Profile.allCases {
            var options = PluginOptions()
            options.profile = profile
            options.faults = try FaultSet.parse(fault.rawValue)
            let plugin = try PluginWorld(
                options: options, infoPlist: .defaultPlist(bundleIdentifier: "com.example.app"),
                events: EventRecorder().sink, monotonicNanoseconds: { 0 }
            ).plugin
            #expect(plugin.mutations.count == PortMutants.mutations(fault, plugin).count)
            #expect(plugin.mutationMatches.count == plugin.mutations.count)
            matches.append(plugin.mutationMatches)
        }
        for i in matches[0].indices {
            #expect(matches.contains { $0[i] > 0 }, "\(fault.rawValue): mutation \(i) changes nothing: \(matches)")
        }
    }

    /// Without `BSP_FAULT` there are no mutations.
    @Test func noFaultNoMutation() throws {
        let plugin = try PluginWorld(
            options: PluginOptions(), infoPlist: .defaultPlist(bundleIdentifier: "com.example.app"),
            events: EventRecorder().sink, monotonicNanoseconds: { 0 }
        ).plugin
        #expect(plugin.mutations.isEmpty)
        #expect(Fault.allCases.filter { !PortMutants.mutations($0, plugin).isEmpty }.count == 15)
    }

    /// The port's files hold the seed's methods without a fault check (issue 15 item 2).
    @Test func thePortHasNoFaultChecks() throws {
        let port = PackageRoot.url("Sources/BackgroundServicePlugin/Port")
        let files = try FileManager.default.contentsOfDirectory(atPath: port.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 4)
        for file in files {
            let text = try String(contentsOfFile: port.appendingPathComponent(file).path, encoding: .utf8)
            for word in ["faults", "Fault", "BSP_FAULT"] {
                #expect(!text.contains(word), "\(file) mentions \(word)")
            }
        }
    }
}
