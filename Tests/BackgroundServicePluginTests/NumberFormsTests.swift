import HostProtocol
import HostTestSupport
import Testing

/// Every numeric member reads the same value whether the number is written as Rust's
/// serde_json writes it (`28.0`, `1e16`, `1e-7`, `9500000000000000.0`, `-0.0`) or as
/// Swift's `JSONNumber(Double)` does (`28`, `1e+16`, `1e-07`, `9.5e+15`, `0`): the
/// plugin's whole output is the same bytes under both profiles (issue 27, item 5).
@Suite("numbers written either way")
struct NumberFormsTests {
    /// A script with the numbers of each member as `form` writes them; ids are the same
    /// in both forms (ids keep their literal and are checked on their own below).
    static func manualScript(_ n: (String, String) -> String) -> [String] {
        [
            initialize(1, events: true),
            req(
                2, "startKeepalive",
                #"{"iosSafetyTimeoutSecs":\#(n("9500.0", "9.5e+3")),"#
                    + #""iosProcessingSafetyTimeoutSecs":\#(n("1e16", "1e+16")),"#
                    + #""iosEarliestRefreshBeginMinutes":\#(n("1e-7", "1e-07")),"#
                    + #""iosEarliestProcessingBeginMinutes":\#(n("-0.0", "0"))}"#),
            state(3), req(4, "waitForCancel"), advance(5, n("2.5e-6", "2.5e-06")), launch(6, refreshID),
            advance(7, n("9500.0", "9500")), advance(8, n("-0.0", "0.0")), launch(9, processingID),
            advance(10, n("1e1", "1e+1")), state(11),
            req(
                12, "startKeepalive",
                #"{"iosSafetyTimeoutSecs":\#(n("9500000000000000.0", "9.5e+15")),"#
                    + #""iosEarliestRefreshBeginMinutes":\#(n("1e16", "1e+16"))}"#),
            state(13),
        ]
    }

    /// serde's form and Swift's form of one number.
    static let serde: @Sendable (String, String) -> String = { a, _ in a }
    static let swift: @Sendable (String, String) -> String = { _, b in b }

    @Test("--os manual: the same output for either form", arguments: ["seed", "strict"])
    func manual(profile: String) throws {
        let a = try Plugin.run(["--profile", profile], Self.manualScript(Self.serde))
        let b = try Plugin.run(["--profile", profile], Self.manualScript(Self.swift))
        #expect(a.status == 0 && b.status == 0)
        #expect(a.lines == b.lines)
        // And the values are the ones meant: 1e-7 minutes is 6 µs, -0.0 is 0, a 9500 s timer.
        #expect(a.lines.contains(evSubmitted(refreshID, "0.000006")))
        #expect(a.lines.contains(evSubmitted(processingID, "0")))
        #expect(
            a.lines.contains(
                #"{"jsonrpc":"2.0","method":"plugin/safetyTimer","params":{"deadline":9500.0000025,"state":"started"}}"#
            ))
        #expect(a.lines.contains(now(8, "9500.0000025")))
    }

    /// Under `--os ios`: the condition and policy members, integers among them
    /// (`energyBudgetLaunches` 3.0 is 3: JSON Schema counts 3.0 as an integer).
    @Test("--os ios: conditions and policy, integers included", arguments: ["seed", "strict"])
    func ios(profile: String) throws {
        func script(_ n: (String, String) -> String) -> [String] {
            [
                initialize(1, events: true),
                setPolicy(
                    2,
                    #"{"refreshBudgetSecs":\#(n("30.0", "30")),"refreshEarlyExpiryChance":\#(n("5e-1", "0.5")),"#
                        + #""energyBudgetLaunches":\#(n("3.0", "3")),"maxConcurrentTasks":\#(n("1e0", "1"))}"#),
                conditions(3, #"{"batteryLevel":\#(n("2.5e-1", "0.25")),"lowPowerMode":false}"#),
                req(4, "startKeepalive", #"{"iosEarliestRefreshBeginMinutes":\#(n("1e-7", "1e-07"))}"#),
                advance(5, n("1e3", "1000")), state(6),
            ]
        }
        let flags = iosFlags(seed: 7) + ["--profile", profile]
        let a = try Plugin.run(flags, script(Self.serde))
        let b = try Plugin.run(flags, script(Self.swift))
        #expect(a.status == 0 && b.status == 0)
        #expect(a.lines == b.lines)
        #expect(!a.lines.contains { $0.contains("-32602") }, "\(a.lines.filter { $0.contains("error") })")
        #expect(a.lines.contains { $0.hasPrefix(#"{"id":2,"#) && $0.contains(#""energyBudgetLaunches":3,"#) })
        #expect(a.lines.contains { $0.hasPrefix(#"{"id":3,"#) && $0.contains(#""batteryLevel":0.25"#) })
    }

    /// Ids keep their literal: each form is echoed exactly as it came.
    @Test("ids in either form are echoed as written")
    func ids() throws {
        let texts = ["1e16", "1e+16", "9500000000000000.0", "9.5e+15", "-0.0", "0.0", "1e-7", "1e-07"]
        let lines = try Plugin.lines([], texts.map { req(rawID: $0, "os/pendingTaskRequests") })
        #expect(lines == texts.map { #"{"id":\#($0),"jsonrpc":"2.0","result":[]}"# })
    }
}
