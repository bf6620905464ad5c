import HostProtocol
import HostTestSupport
import Testing

/// Contract 2: with the virtual clock the whole output is a byte-for-byte
/// deterministic function of the input and the flags.
@Suite("determinism")
struct DeterminismTests {
    /// A script of `count` messages mixing every invoke, every `os/` control (with
    /// good and bad params), session methods, notifications and batches.
    static func script(seed: UInt64, count: Int) -> [String] {
        var rng = SplitMix64(seed: seed)  // fixed seed: the script is the same every run
        func pick<T>(_ options: [T]) -> T { options[Int(rng.next() % UInt64(options.count))] }
        let identifiers = [refreshID, refreshID, processingID, processingID, "com.example.app.nope"]
        let numbers = ["0", "0.5", "1", "5", "28", "-1", "\"x\"", "null", "true", "0.000000001"]
        let minutes = ["0.5", "1", "5", "\"x\"", "null", "true"]
        var lines: [String] = []
        for id in 1...count {
            let line: String
            switch rng.next() % 20 {
            case 0, 1:
                var fields: [String] = []
                for key in ["iosSafetyTimeoutSecs", "iosProcessingSafetyTimeoutSecs"] where rng.next() % 3 == 0 {
                    fields.append("\"\(key)\":\(pick(numbers))")
                }
                // Begin offsets stay positive (or wrong-typed): with offset and timeout both
                // <= 0 and autoLaunch on, every 0.1 ms of an advance would be a launch.
                for key in ["iosEarliestRefreshBeginMinutes", "iosEarliestProcessingBeginMinutes"]
                where rng.next() % 3 == 0 {
                    fields.append("\"\(key)\":\(pick(minutes))")
                }
                for key in ["iosRequiresExternalPower", "iosRequiresNetworkConnectivity"] where rng.next() % 4 == 0 {
                    fields.append("\"\(key)\":\(pick(["true", "false", "1"]))")
                }
                line = req(id, "startKeepalive", "{\(fields.joined(separator: ","))}")
            case 2, 3: line = req(id, "waitForCancel")
            case 4, 5:
                line = req(
                    id, "completeBgTask",
                    pick([nil, #"{"success":true}"#, #"{"success":false}"#, #"{"success":"no"}"#]))
            case 6: line = req(id, "stopKeepalive")
            case 7: line = req(id, "cancelCancelListener")
            case 8, 9: line = launch(id, pick(identifiers))
            case 10: line = expire(id, pick(identifiers))
            case 11, 12, 13:
                line = advance(id, pick(["0", "1", "10", "27.999999999", "28", "100", "900", "1000.5", "-1", "\"s\""]))
            case 14:
                line = conditions(
                    id,
                    pick([
                        #"{"autoLaunch":true}"#, #"{"autoLaunch":false}"#, #"{"externalPower":true}"#,
                        #"{"externalPower":false}"#,
                        #"{"networkConnected":false}"#, #"{"networkConnected":true}"#,
                        #"{"backgroundRefreshStatus":"denied"}"#,
                        #"{"backgroundRefreshStatus":"available"}"#, #"{"autoLaunch":"on"}"#,
                    ]))
            case 15: line = req(id, "os/pendingTaskRequests")
            case 16:
                line = req(
                    id, "os/submit",
                    #"{"identifier":"\#(pick(identifiers))","kind":"\#(pick(["refresh", "processing"]))","#
                        + #""earliestBeginDate":\#(pick(["0", "50", "null"]))}"#
                )
            case 17:
                line = pick([
                    state(id), initialize(id, events: rng.next() % 2 == 0),
                    note(pick(["cancelCancelListener", "os/advanceTime"]), #"{"seconds":3}"#),
                ])
            case 18:
                line =
                    "[\(req(id, "os/advanceTime", #"{"seconds":2}"#)),\(req(id + 100_000, "waitForCancel")),"
                    + "\(state(id + 200_000))]"
            default:
                line =
                    rng.next() % 4 == 0 ? req(id, "plugin/reset") : req(id, pick(["nope", "os/pendingTaskRequests"]))
            }
            lines.append(line)
        }
        return lines
    }

    /// The same 1,000-message script run twice gives byte-identical stdout, and the
    /// script really exercises the plugin (launches, timers, completions, rejections).
    @Test(arguments: ["seed", "strict"])
    func sameInputSameBytes(profile: String) throws {
        let script = Self.script(seed: 0x5EED_2024, count: 1_000)
        #expect(script.count == 1_000)
        let first = try Plugin.run(["--events", "--profile", profile], script)
        let second = try Plugin.run(["--events", "--profile", profile], script)
        #expect(first.status == 0 && second.status == 0)
        #expect(!first.timedOut && !second.timedOut)
        #expect(first.stdout == second.stdout)
        let text = String(decoding: first.stdout, as: UTF8.self)
        for needle in [
            "os/taskLaunched", "plugin/safetyTimer", "os/taskCompleted", "\"reason\":\"completed\"",
            "\"reason\":\"stopped\"", "os/submitFailed", "-32002", "-32602",
        ] {
            #expect(text.contains(needle), "the script never produced \(needle)")
        }
        #expect(first.lines.count > 1_000)
    }

    /// A different script gives different output (the comparison above is not vacuous).
    @Test func differentInputDifferentBytes() throws {
        let a = try Plugin.run(["--events"], Self.script(seed: 1, count: 200))
        let b = try Plugin.run(["--events"], Self.script(seed: 2, count: 200))
        #expect(a.stdout != b.stdout)
    }
}
