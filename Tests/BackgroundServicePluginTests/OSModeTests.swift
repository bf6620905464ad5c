import HostProtocol
import HostTestSupport
import Testing

/// `--os manual|ios` and `--os-seed`: manual is the default and unchanged; the
/// `--os ios` controls and members and their params checks.
@Suite("os mode: flags, manual unchanged, ios params")
struct OSModeTests {
    /// A script touching every `--os ios` name: under manual they are unknown methods
    /// and unknown members, exactly as before the mode existed.
    static let script = [
        initialize(1, events: true), req(2, "startKeepalive"), terminate(3, "system"), openApp(4),
        explain(5, refreshID), setPolicy(6, #"{"refreshBudgetSecs":3}"#),
        conditions(7, #"{"batteryLevel":"full","lowPowerMode":1,"deviceInUse":true}"#),
        req(8, "waitForCancel"), launch(9, refreshID), advance(10, "100"), state(11),
    ]

    /// `--os manual` is the default: the same bytes with and without the flag (and a
    /// seed changes nothing), no `os` in `initialize`, -32601 for the ios methods, the
    /// ios condition members ignored, and no automatic expiration: a refresh task with
    /// a 1000 s safety timer is still running 900 s after its launch.
    @Test func manualIsTheDefaultAndUnchanged() throws {
        let plain = try Plugin.run([], Self.script)
        let manual = try Plugin.run(["--os", "manual", "--os-seed", "99"], Self.script)
        #expect(plain.stdout == manual.stdout && plain.status == 0)
        let lines = plain.lines
        #expect(
            lines[0]
                == ok(
                    1,
                    #"{"bundleIdentifier":"com.example.app","clock":"virtual","profile":"seed","#
                        + #""protocolVersion":"1","serverInfo":{"name":"background-service-plugin","version":"0.1.0"},"#
                        + #""taskIdentifiers":{"processing":"com.example.app.bg-processing","#
                        + #""refresh":"com.example.app.bg-refresh"}}"#))
        for (id, method) in [(3, "os/terminate"), (4, "os/openApp"), (5, "os/explain"), (6, "os/setPolicy")] {
            #expect(lines.contains(failure(id, -32601, "Method not found: \(method)")))
        }
        #expect(lines.contains(ok(7, AutoLaunchTests.conds(autoLaunch: false))))
        #expect(!lines.contains { $0.contains("os/taskExpired") || $0.contains("os/app") || $0.contains(#""ios":"#) })
        let long = try Plugin.lines(
            [],
            [
                req(1, "startKeepalive", #"{"iosSafetyTimeoutSecs":1000}"#), launch(2, refreshID), advance(3, "900"),
                state(4),
            ])
        #expect(try Replies.state(4, in: long).activeTask?.identifier == refreshID)
    }

    /// `--os ios` says so in `initialize` (with its seed) and `plugin/state` (`ios`,
    /// the wider conditions, `watchdogKills`); `autoLaunch` starts on.
    @Test func iosAnnouncesItself() throws {
        let lines = try Plugin.lines(
            ["--os", "ios", "--os-seed", "18446744073709551615"], [initialize(1, events: false), state(2)])
        #expect(lines[0].contains(#""os":"ios","osSeed":18446744073709551615,"#))
        let s = try Replies.state(2, in: lines)
        #expect(s.conditions == .iosDefaults && s.counters.watchdogKills == 0)
        #expect(
            s.ios
                == IOSStateSnapshot(
                    app: AppStatus(
                        phase: .running, launchCause: .user, launchedAt: .zero, forceQuit: false,
                        registrationError: nil,
                        lastTermination: nil, launches: 1),
                    policy: .defaults, energy: .init(launchesAvailable: 12, capacity: 12, fullAt: .zero),
                    runningTask: nil,
                    // (The device's defaults: the app starts in the background, suspended 5 s later.)
                    nextEventAt: VirtualTime(seconds: 5), appState: .background, lastUsedAt: .zero))
    }

    /// Bad flags are usage errors (exit 64); `--help` documents both.
    @Test(arguments: [
        (["--os", "android"], #"--os must be manual, ios or simulator, not "android""#),
        (["--os-seed", "-1"], #"--os-seed must be an integer from 0 to 18446744073709551615, not "-1""#),
        (["--os-seed=x"], #"--os-seed must be an integer from 0 to 18446744073709551615, not "x""#),
        (["--os"], "--os needs a value"),
        (["--os", "ios", "--ios-defaults", "old"], #"--ios-defaults must be device or legacy, not "old""#),
        (["--ios-defaults", "legacy"], "--ios-defaults applies only with --os ios"),
        (["--os", "simulator", "--ios-defaults=device"], "--ios-defaults applies only with --os ios"),
    ])
    func usageErrors(arguments: [String], reason: String) throws {
        let run = try Plugin.run(arguments, [state(1)])
        #expect(run.status == 64 && run.stdout.isEmpty)
        #expect(run.stderrLines.first == "background-service-plugin: error: \(reason)")
    }

    @Test func helpDocumentsTheFlags() throws {
        let run = try Plugin.run(["--help"], [])
        #expect(run.lines.contains { $0.hasPrefix("  --os manual|ios") })
        #expect(run.lines.contains { $0.hasPrefix("  --os-seed N") })
        #expect(run.lines.contains { $0.hasPrefix("  --ios-defaults device|legacy") })
    }

    static let p = "Invalid params: "

    /// `os/setPolicy` and the ios members of `os/setConditions` check their params:
    /// -32602, and nothing changes.
    @Test(arguments: [
        (
            setPolicy(3, #"{"refreshBudgetSecs":0}"#),
            p + #"\"refreshBudgetSecs\" must be a number of seconds from 0.000000001 to 31536000, got 0"#
        ),
        (
            setPolicy(3, #"{"processingBudgetSecs":1e-10}"#),
            p + #"\"processingBudgetSecs\" must be a number of seconds from 0.000000001 to 31536000, got 1e-10"#
        ),
        (
            setPolicy(3, #"{"watchdogGraceSecs":-1}"#),
            p + #"\"watchdogGraceSecs\" must be a number of seconds from 0 to 31536000, got -1"#
        ),
        (
            setPolicy(3, #"{"minLaunchSpacingSecs":31536000.5}"#),
            p + #"\"minLaunchSpacingSecs\" must be a number of seconds from 0 to 31536000, got 31536000.5"#
        ),
        (
            setPolicy(3, #"{"refreshDelayMaxSecs":"1"}"#),
            p + #"\"refreshDelayMaxSecs\" must be a finite number, got string"#
        ),
        (
            setPolicy(3, #"{"refreshEarlyExpiryChance":1.5}"#),
            p + #"\"refreshEarlyExpiryChance\" must be a number from 0 to 1, got 1.5"#
        ),
        (
            setPolicy(3, #"{"energyBudgetLaunches":0}"#),
            p + #"\"energyBudgetLaunches\" must be an integer from 1 to 100000, got 0"#
        ),
        (
            setPolicy(3, #"{"energyBudgetLaunches":2.5}"#),
            p + #"\"energyBudgetLaunches\" must be an integer from 1 to 100000, got 2.5"#
        ),
        (
            setPolicy(3, #"{"energyBudgetLaunches":99999999999999999999}"#),
            p + #"\"energyBudgetLaunches\" must be an integer from 1 to 100000, got 99999999999999999999"#
        ),
        (
            setPolicy(3, #"{"energyBudgetLaunches":"12"}"#),
            p + #"\"energyBudgetLaunches\" must be an integer from 1 to 100000, got string"#
        ),
        (setPolicy(3, #"{"pluginLoadsLate":"yes"}"#), p + #"\"pluginLoadsLate\" must be a boolean, got string"#),
        (setPolicy(3, #"{"crashOnMisuse":"yes"}"#), p + #"\"crashOnMisuse\" must be a boolean, got string"#),
        (setPolicy(3, #"{"multipleScenes":1}"#), p + #"\"multipleScenes\" must be a boolean, got number"#),
        (
            setPolicy(3, #"{"refreshDelayMinSecs":2000}"#),
            p + "refreshDelayMinSecs (2000) must not exceed refreshDelayMaxSecs (1800)"
        ),
        (
            setPolicy(3, #"{"refreshEarlyExpiryMinSecs":6}"#),
            p + "refreshEarlyExpiryMinSecs (6) must not exceed refreshEarlyExpiryMaxSecs (5)"
        ),
        (conditions(3, #"{"batteryLevel":1.5}"#), p + #"\"batteryLevel\" must be a number from 0 to 1, got 1.5"#),
        (
            conditions(3, #"{"lowPowerMode":"on","batteryLevel":1.5}"#),
            p + #"\"batteryLevel\" must be a number from 0 to 1, got 1.5"#
        ),
        (
            conditions(3, #"{"lowPowerMode":"on","externalPower":true}"#),
            p + #"\"lowPowerMode\" must be a boolean, got string"#
        ),
        (
            conditions(3, #"{"deviceInUse":true,"externalPower":1}"#),
            p + #"\"externalPower\" must be a boolean, got number"#
        ),
        (
            setPolicy(3, #"{"maxConcurrentTasks":0}"#),
            p + #"\"maxConcurrentTasks\" must be an integer from 1 to 100, or null (no limit), got 0"#
        ),
        (
            setPolicy(3, #"{"maxConcurrentTasks":1.5}"#),
            p + #"\"maxConcurrentTasks\" must be an integer from 1 to 100, or null (no limit), got 1.5"#
        ),
        (
            setPolicy(3, #"{"maxConcurrentTasks":"1"}"#),
            p + #"\"maxConcurrentTasks\" must be an integer from 1 to 100, or null (no limit), got string"#
        ),
    ])
    func badParamsChangeNothing(request: String, message: String) throws {
        let lines = try Plugin.lines(iosFlags(), [req(1, "startKeepalive"), state(2), request, state(4)])
        #expect(lines[lines.count - 2] == failure(3, -32602, message))
        #expect(resultPart(lines[lines.count - 3]) == resultPart(lines[lines.count - 1]))
    }

    /// Durations are written as the protocol's times: exact decimals of the nanoseconds used
    /// (`0.000000001`, not `1e-09`), in the policy and in the words that cite it.
    @Test func policyTimesAreExactDecimals() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, #"{"processingBudgetSecs":1e-9,"minLaunchSpacingSecs":0.00001,"refreshDelayMaxSecs":0}"#),
                req(2, "startKeepalive", #"{"iosEarliestRefreshBeginMinutes":0}"#), advance(3, "0"),
                req(5, "completeBgTask"), explain(6, refreshID),
            ])
        let reasons = try Replies.explanation(6, in: lines).reasons
        #expect(
            reasons.contains {
                $0.factor == .rateLimit && $0.detail.hasSuffix("at least 0.00001 s between its launches")
            })
        #expect(
            lines.first
                == ok(
                    1,
                    policyJSON([
                        "processingBudgetSecs": "0.000000001", "minLaunchSpacingSecs": "0.00001",
                        "refreshDelayMaxSecs": "0",
                    ])))
        #expect(!lines.contains { $0.contains("e-") })
    }

    /// `os/setPolicy` answers the whole policy; `os/setConditions` the whole conditions.
    @Test func controlsAnswerTheWholeObject() throws {
        let lines = try Plugin.lines(
            iosFlags(),
            [
                setPolicy(1, #"{"watchdogGraceSecs":2.5,"energyBudgetLaunches":30}"#),
                conditions(2, #"{"batteryLevel":0.5}"#),
            ])
        #expect(
            lines == [
                ok(1, policyJSON(["watchdogGraceSecs": "2.5", "energyBudgetLaunches": "30"])),
                ok(
                    2,
                    #"{"autoLaunch":true,"backgroundRefreshStatus":"available","batteryLevel":0.5,"deviceInUse":false,"#
                        + #""externalPower":false,"lowPowerMode":false,"networkConnected":true}"#),
            ])
    }
}
