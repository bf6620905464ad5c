import HostTestSupport
import Testing

/// Contract 3, `startKeepalive`: config-persists and schedule-next, in both profiles.
@Suite("startKeepalive")
struct StartKeepaliveTests {
    /// config-persists: given fields replace the stored values, absent fields keep
    /// theirs (they do not go back to the defaults). Same in both profiles.
    @Test(arguments: ["seed", "strict"])
    func configPersists(profile: String) throws {
        let lines = try Plugin.lines(
            ["--profile", profile],
            [
                req(
                    1, "startKeepalive",
                    #"{"iosSafetyTimeoutSecs":10,"iosEarliestRefreshBeginMinutes":1,"#
                        + #""iosProcessingSafetyTimeoutSecs":300}"#
                ),
                req(
                    2, "startKeepalive",
                    #"{"iosEarliestProcessingBeginMinutes":2,"iosRequiresExternalPower":true,"label":"sync"}"#),
                req(3, "startKeepalive", #"{"iosRequiresNetworkConnectivity":true}"#),
                state(4),
            ])
        var s = StateLine()
        s.profile = profile
        s.config = .init(
            processingMinutes: "2", refreshMinutes: "1", processingSafety: "300", power: true, network: true,
            safety: "10")
        s.scheduled("60", "120", power: true, network: true)
        #expect(lines == [ok(1), ok(2), ok(3), s.line(4)])
    }

    /// config-persists, `seed`: a field of the wrong type is ignored (as the seed's
    /// `as? Double` / `as? Bool` casts fail), the well-typed ones are applied.
    @Test func configWrongTypesSeed() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                req(
                    1, "startKeepalive",
                    #"{"iosSafetyTimeoutSecs":"10","iosEarliestRefreshBeginMinutes":2,"#
                        + #""iosRequiresExternalPower":1,"iosRequiresNetworkConnectivity":true,"#
                        + #""iosEarliestProcessingBeginMinutes":true,"label":5}"#
                ),
                state(2),
            ])
        var s = StateLine()
        s.config.refreshMinutes = "2"
        s.config.network = true
        s.scheduled("120", "900", network: true)
        #expect(lines == evScheduled("120", "900", network: true) + [ok(1), s.line(2)])
    }

    /// config-persists, `strict`: a field of the wrong type is -32602 and nothing
    /// changes: no field is stored, nothing is submitted.
    @Test(arguments: [
        (
            #"{"iosSafetyTimeoutSecs":"10","iosEarliestRefreshBeginMinutes":2}"#,
            #"\"iosSafetyTimeoutSecs\" must be a finite number, got string"#
        ),
        (
            #"{"iosEarliestRefreshBeginMinutes":2,"iosRequiresExternalPower":1}"#,
            #"\"iosRequiresExternalPower\" must be a boolean, got number"#
        ),
        (
            #"{"iosEarliestProcessingBeginMinutes":true}"#,
            #"\"iosEarliestProcessingBeginMinutes\" must be a finite number, got boolean"#
        ),
        (#"{"iosSafetyTimeoutSecs":1e400}"#, #"\"iosSafetyTimeoutSecs\" must be a finite number, got number"#),
        (#"{"label":5,"iosSafetyTimeoutSecs":3}"#, #"\"label\" must be a string, got number"#),
    ])
    func configWrongTypesStrict(params: String, message: String) throws {
        let lines = try Plugin.lines(
            ["--events", "--profile", "strict"],
            [
                req(1, "startKeepalive", #"{"iosSafetyTimeoutSecs":20}"#),
                req(2, "startKeepalive", params),
                state(3),
            ])
        var s = StateLine()
        s.profile = "strict"
        s.config.safety = "20"
        s.scheduled("900")
        #expect(lines == evScheduled("900") + [ok(1), failure(2, -32602, "Invalid params: " + message), s.line(3)])
    }

    /// config-persists, `iosProcessingSafetyTimeoutSecs: null`: `seed` ignores it
    /// (the cast fails, the stored 60 stays); `strict` accepts it and clears the timer.
    @Test(arguments: [("seed", "60"), ("strict", "null")])
    func nullProcessingTimeout(profile: String, stored: String) throws {
        let lines = try Plugin.lines(
            ["--profile", profile],
            [
                req(1, "startKeepalive", #"{"iosProcessingSafetyTimeoutSecs":60}"#),
                req(2, "startKeepalive", #"{"iosProcessingSafetyTimeoutSecs":null}"#),
                launch(3, processingID),
                state(4),
            ])
        var s = StateLine()
        s.profile = profile
        s.config.processingSafety = stored
        s.pendingRequests = [requestJSON(refreshID, "900")]
        s.active(processingID, at: "0")
        s.launched = 1
        s.safetyTimer = profile == "seed" ? "60" : nil
        #expect(lines == [ok(1), ok(2), launched(3, processingID, at: "0"), s.line(4)])
    }

    /// schedule-next: both requests are submitted, refresh at now + refreshMinutes*60,
    /// processing at now + processingMinutes*60 with the two constraints; then it resolves.
    @Test func scheduleNext() throws {
        let lines = try Plugin.lines(
            ["--events"],
            [
                advance(1, "10"),
                req(
                    2, "startKeepalive",
                    #"{"iosEarliestRefreshBeginMinutes":1,"iosEarliestProcessingBeginMinutes":2.5,"#
                        + #""iosRequiresExternalPower":true,"iosRequiresNetworkConnectivity":true}"#
                ),
                req(3, "os/pendingTaskRequests"),
            ])
        #expect(
            lines == [now(1, "10")] + evScheduled("70", "160", power: true, network: true) + [
                ok(2),
                ok(
                    3,
                    "[\(requestJSON(processingID, "160", power: true, network: true)),"
                        + "\(requestJSON(refreshID, "70"))]"),
            ])
    }

    /// schedule-next: a submission that fails is logged (stderr) and reported as
    /// `os/submitFailed`, never returned: the invoke still resolves.
    @Test(arguments: ["denied", "restricted"])
    func scheduleNextFailureIsLogged(status: String) throws {
        let run = try Plugin.run(
            ["--events"],
            [
                conditions(1, #"{"backgroundRefreshStatus":"\#(status)"}"#),
                req(2, "startKeepalive"),
                req(3, "os/pendingTaskRequests"),
            ])
        #expect(run.status == 0)
        #expect(
            run.lines == [
                ok(
                    1,
                    #"{"autoLaunch":false,"backgroundRefreshStatus":"\#(status)","externalPower":false,"#
                        + #""networkConnected":true}"#
                ),
                evSubmitFailed(refreshID, "unavailable"),
                evSubmitFailed(processingID, "unavailable"),
                ok(2),
                ok(3, "[]"),
            ])
        #expect(
            run.stderrLines.contains(
                "background-service-plugin: Failed to submit BGAppRefreshTask '\(refreshID)': unavailable"))
        #expect(
            run.stderrLines.contains(
                "background-service-plugin: Failed to submit BGProcessingTask '\(processingID)': unavailable"))
    }

    /// Unknown members inside params are ignored; `label` and `foregroundServiceType`
    /// (Android-only) are accepted and change nothing on iOS.
    @Test(arguments: ["seed", "strict"])
    func unknownAndAndroidFieldsIgnored(profile: String) throws {
        let lines = try Plugin.lines(
            ["--profile", profile],
            [
                req(
                    1, "startKeepalive",
                    #"{"label":"Syncing","foregroundServiceType":"dataSync","somethingElse":[1,2]}"#),
                state(2),
            ])
        var s = StateLine()
        s.profile = profile
        s.scheduled("900")
        #expect(lines == [ok(1), s.line(2)])
    }
}
