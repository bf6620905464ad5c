import HostTestSupport
import Testing

/// Contract 5, the emulated `BGTaskScheduler`'s submit rules, through the
/// plugin's own submissions and through the `os/submit` extension.
@Suite("scheduler rules")
struct SchedulerRulesTests {
    static func submit(_ id: Int, _ identifier: String, _ kind: String, _ extra: String = "") -> String {
        req(id, "os/submit", #"{"identifier":"\#(identifier)","kind":"\#(kind)"\#(extra)}"#)
    }

    static func schedulerError(_ id: Int, _ identifier: String, _ kind: String) -> String {
        failure(
            id, -32001, "BGTaskScheduler.submit failed for \(identifier): \(kind)", data: #"{"scheduler":"\#(kind)"}"#)
    }

    /// notPermitted: an identifier missing from `BGTaskSchedulerPermittedIdentifiers`,
    /// or a missing `fetch` / `processing` mode, fails that submission only.
    @Test(
        arguments: [
            ([refreshID, processingID], ["fetch"], true, false),
            ([refreshID, processingID], ["processing"], false, true),
            ([processingID], ["fetch", "processing"], false, true),
            ([refreshID], ["fetch", "processing"], true, false),
            (
                ["$(PRODUCT_BUNDLE_IDENTIFIER).bg-refresh", "$(PRODUCT_BUNDLE_IDENTIFIER).bg-processing"],
                ["fetch", "processing"], true, true
            ),
        ] as [([String], [String], Bool, Bool)])
    func notPermitted(identifiers: [String], modes: [String], refreshOK: Bool, processingOK: Bool) throws {
        let plist = try TemporaryFile(InfoPlistText.make(identifiers: identifiers, modes: modes))
        let lines = try Plugin.lines(["--events", "--info-plist", plist.path], [req(1, "startKeepalive")])
        #expect(
            lines == [
                refreshOK ? evSubmitted(refreshID, "900") : evSubmitFailed(refreshID, "notPermitted"),
                processingOK ? evSubmitted(processingID, "900") : evSubmitFailed(processingID, "notPermitted"),
                ok(1),
            ])
    }

    /// notPermitted: a plist with neither key permits nothing; the plugin still serves.
    @Test func notPermittedEmptyPlist() throws {
        let plist = try TemporaryFile(InfoPlistText.make(identifiers: nil, modes: nil))
        let run = try Plugin.run(
            ["--events", "--info-plist", plist.path], [req(1, "startKeepalive"), Self.submit(2, refreshID, "refresh")])
        #expect(run.status == 0)
        #expect(
            run.lines == [
                evSubmitFailed(refreshID, "notPermitted"), evSubmitFailed(processingID, "notPermitted"), ok(1),
                evSubmitFailed(refreshID, "notPermitted"), Self.schedulerError(2, refreshID, "notPermitted"),
            ])
        #expect(run.stderr.contains("has no BGTaskSchedulerPermittedIdentifiers"))
        #expect(run.stderr.contains("has no UIBackgroundModes"))
    }

    /// The seed's comment names the modes `background-fetch` / `background-processing`,
    /// which iOS does not know: a warning on stderr names the right mode, and
    /// submissions fail with notPermitted.
    @Test func wrongModesWarning() throws {
        let plist = try TemporaryFile(
            InfoPlistText.make(
                identifiers: [refreshID, processingID], modes: ["background-processing", "background-fetch"]))
        let run = try Plugin.run(["--events", "--info-plist", plist.path], [req(1, "startKeepalive")])
        #expect(run.status == 0)
        #expect(
            run.lines == [
                evSubmitFailed(refreshID, "notPermitted"), evSubmitFailed(processingID, "notPermitted"), ok(1),
            ])
        let prefix = "background-service-plugin: warning: \(plist.path): UIBackgroundModes lists "
        #expect(
            run.stderrLines.contains(
                prefix
                    + #""background-fetch", which iOS does not know; the mode is "fetch" (the seed plugin's "#
                    + #"comment has this mistake)"#
            ))
        #expect(
            run.stderrLines.contains(
                prefix
                    + #""background-processing", which iOS does not know; the mode is "processing" (the seed "#
                    + #"plugin's comment has this mistake)"#
            ))
    }

    /// A plist that is not a property list is a usage error (exit 64).
    @Test func badPlistIsUsageError() throws {
        let plist = try TemporaryFile("this is not a plist")
        let run = try Plugin.run(["--info-plist", plist.path], [state(1)])
        #expect(run.status == 64)
        #expect(run.lines == [])
        #expect(run.stderr.contains("usage: background-service-plugin"))
    }

    /// unavailable: with background refresh `denied` or `restricted`, submit fails
    /// (checked before the plist: an unpermitted identifier is `unavailable` too).
    @Test(arguments: ["denied", "restricted"])
    func unavailable(status: String) throws {
        let lines = try Plugin.lines(
            [],
            [
                conditions(1, #"{"backgroundRefreshStatus":"\#(status)"}"#),
                Self.submit(2, refreshID, "refresh"),
                Self.submit(3, "com.other.app.task", "processing"),
                conditions(4, #"{"backgroundRefreshStatus":"available"}"#),
                Self.submit(5, refreshID, "refresh", #","earliestBeginDate":60"#),
            ])
        #expect(
            lines == [
                ok(
                    1,
                    #"{"autoLaunch":false,"backgroundRefreshStatus":"\#(status)","externalPower":false,"#
                        + #""networkConnected":true}"#
                ),
                Self.schedulerError(2, refreshID, "unavailable"),
                Self.schedulerError(3, "com.other.app.task", "unavailable"),
                ok(
                    4,
                    #"{"autoLaunch":false,"backgroundRefreshStatus":"available","externalPower":false,"#
                        + #""networkConnected":true}"#
                ),
                ok(5, requestJSON(refreshID, "60")),
            ])
    }

    /// Submitting an identifier replaces its pending request (never a second one).
    @Test func replaceOnResubmit() throws {
        let lines = try Plugin.lines(
            [],
            [
                req(1, "startKeepalive"),
                advance(2, "100"),
                req(3, "startKeepalive", #"{"iosEarliestRefreshBeginMinutes":1,"iosRequiresExternalPower":true}"#),
                Self.submit(
                    4, processingID, "processing", #","earliestBeginDate":null,"requiresNetworkConnectivity":true"#),
                req(5, "os/pendingTaskRequests"),
            ])
        #expect(
            lines == [
                ok(1), now(2, "100"), ok(3),
                ok(4, requestJSON(processingID, "null", network: true)),
                ok(5, "[\(requestJSON(processingID, "null", network: true)),\(requestJSON(refreshID, "160"))]"),
            ])
    }

    /// tooManyPendingTaskRequests: at most 1 refresh and 10 processing requests;
    /// a resubmission at the limit is a replacement and succeeds; a failure changes nothing.
    @Test func tooManyPendingTaskRequests() throws {
        let extra = (1...10).map { "com.example.app.p\($0)" }
        let plist = try TemporaryFile(
            InfoPlistText.make(
                identifiers: [refreshID, processingID, "com.example.app.r2"] + extra, modes: ["fetch", "processing"]))
        var script = [
            Self.submit(1, refreshID, "refresh"), Self.submit(2, "com.example.app.r2", "refresh"),
            Self.submit(3, refreshID, "refresh", #","earliestBeginDate":5"#),
        ]
        script += (0..<9).map { Self.submit(10 + $0, extra[$0], "processing") }
        script += [
            Self.submit(19, processingID, "processing"), Self.submit(20, extra[9], "processing"),
            Self.submit(21, processingID, "processing", #","earliestBeginDate":7"#),
        ]
        script += [req(22, "os/pendingTaskRequests")]
        let lines = try Plugin.lines(["--info-plist", plist.path], script)
        var expected = [
            ok(1, requestJSON(refreshID, "null")),
            Self.schedulerError(2, "com.example.app.r2", "tooManyPendingTaskRequests"),
            ok(3, requestJSON(refreshID, "5")),
        ]
        expected += (0..<9).map { ok(10 + $0, requestJSON(extra[$0], "null", kind: "processing")) }
        expected += [
            ok(19, requestJSON(processingID, "null")), Self.schedulerError(20, extra[9], "tooManyPendingTaskRequests"),
            ok(21, requestJSON(processingID, "7")),
        ]
        // Sorted by identifier: bg-processing, bg-refresh, p1 … p9.
        let pending =
            [requestJSON(processingID, "7"), requestJSON(refreshID, "5")]
            + extra.prefix(9).map { requestJSON($0, "null", kind: "processing") }
        expected += [ok(22, "[\(pending.joined(separator: ","))]")]
        #expect(lines == expected)
    }

    /// tooManyPendingTaskRequests hits the plugin's own schedule-next too: it is
    /// logged and reported, and startKeepalive still resolves.
    @Test func tooManyHitsScheduleNext() throws {
        let extra = (1...10).map { "com.example.app.p\($0)" }
        let plist = try TemporaryFile(
            InfoPlistText.make(identifiers: [refreshID, processingID] + extra, modes: ["fetch", "processing"]))
        let script =
            extra.enumerated().map { Self.submit($0.offset + 1, $0.element, "processing") } + [
                req(20, "startKeepalive")
            ]
        let run = try Plugin.run(["--events", "--info-plist", plist.path], script)
        #expect(
            Array(run.lines.suffix(3)) == [
                evSubmitted(refreshID, "900"), evSubmitFailed(processingID, "tooManyPendingTaskRequests"), ok(20),
            ])
        #expect(run.stderr.contains("Failed to submit BGProcessingTask '\(processingID)': tooManyPendingTaskRequests"))
    }
}
