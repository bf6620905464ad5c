import HostProtocol
import Testing

func keys(_ v: JSONValue) -> [String] { v.objectValue?.keys ?? [] }

/// T(json: v.json) == v, directly and through the wire text.
func expectRoundTrip<T: JSONCodable & Equatable>(_ v: T, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect((try? T(json: v.json)) == v, sourceLocation: sourceLocation)
    #expect((try? T(json: JSONParser.parse(v.json.compactBytes))) == v, "\(v.json)", sourceLocation: sourceLocation)
}

@Suite("Method results and events: shapes and round trips")
struct MethodResultsTests {
    static let at = VirtualTime(seconds: 900.5)!
    static let refresh = TaskRequestInfo(
        identifier: "com.example.app.bg-refresh", kind: .refresh, earliestBeginDate: VirtualTime(seconds: 900)!)
    static let processing = TaskRequestInfo(
        identifier: "com.example.app.bg-processing", kind: .processing, earliestBeginDate: nil,
        requiresExternalPower: true, requiresNetworkConnectivity: true)

    @Test("os/launch result is {identifier, kind, at}")
    func launch() {
        let r = OSLaunch.Result(identifier: "com.example.app.bg-refresh", kind: .refresh, at: MethodResultsTests.at)
        #expect(text(r.json) == #"{"at":900.5,"identifier":"com.example.app.bg-refresh","kind":"refresh"}"#)
        expectRoundTrip(r)
        #expect(decodeError(OSLaunch.Result.self, json(#"{"at":1,"identifier":"x","kind":"other"}"#))?.path == "kind")
    }

    @Test("pending task requests: the five members, null earliestBeginDate kept")
    func pendingRequests() {
        #expect(
            keys(MethodResultsTests.refresh.json) == [
                "earliestBeginDate", "identifier", "kind", "requiresExternalPower", "requiresNetworkConnectivity",
            ])
        #expect(MethodResultsTests.processing.json["earliestBeginDate"] == .null)
        expectRoundTrip(MethodResultsTests.refresh)
        expectRoundTrip(MethodResultsTests.processing)
        let list = TaskRequestList([MethodResultsTests.processing, MethodResultsTests.refresh])
        #expect(list.json.arrayValue?.count == 2)
        expectRoundTrip(list)
        expectRoundTrip(TaskRequestList([]))
        #expect(decodeError(TaskRequestList.self, json("{}")) != nil)
        #expect(decodeError(TaskRequestList.self, json("[{}]")) != nil)
    }

    @Test("conditions: the contract's defaults and shape")
    func conditions() {
        let d = Conditions.defaults
        #expect(
            d
                == Conditions(
                    backgroundRefreshStatus: .available, externalPower: false, networkConnected: true, autoLaunch: false
                ))
        #expect(
            text(d.json)
                == #"{"autoLaunch":false,"backgroundRefreshStatus":"available","externalPower":false,"#
                + #""networkConnected":true}"#
        )
        expectRoundTrip(d)
        expectRoundTrip(
            Conditions(
                backgroundRefreshStatus: .restricted, externalPower: true, networkConnected: false, autoLaunch: true))
        expectRoundTrip(OSSetConditions.Params(externalPower: false, networkConnected: true))
    }

    @Test("initialize result: protocolVersion 1, serverInfo, taskIdentifiers, clock, profile")
    func initializeResult() {
        let r = Initialize.Result(
            serverName: "background-service-plugin", serverVersion: "0.1.0", bundleIdentifier: "com.example.app",
            refreshIdentifier: "com.example.app.bg-refresh", processingIdentifier: "com.example.app.bg-processing",
            clock: .virtual, profile: .seed)
        #expect(r.protocolVersion == "1")
        #expect(
            text(r.json)
                == #"{"bundleIdentifier":"com.example.app","clock":"virtual","profile":"seed","#
                + #""protocolVersion":"1","serverInfo":{"name":"background-service-plugin","version":"0.1.0"},"#
                + #""taskIdentifiers":{"processing":"com.example.app.bg-processing","#
                + #""refresh":"com.example.app.bg-refresh"}}"#
        )
        expectRoundTrip(r)
        var broken = r.json.objectValue!
        broken["serverInfo"] = ["name": "x"]
        #expect(decodeError(Initialize.Result.self, .object(broken))?.path == "serverInfo.version")
    }

    @Test("plugin config: the seed's defaults")
    func config() {
        let d = PluginConfig.defaults
        #expect(d.iosSafetyTimeoutSecs == 28)
        #expect(d.iosProcessingSafetyTimeoutSecs == nil)
        #expect(d.iosEarliestRefreshBeginMinutes == 15)
        #expect(d.iosEarliestProcessingBeginMinutes == 15)
        #expect(!d.iosRequiresExternalPower && !d.iosRequiresNetworkConnectivity)
        #expect(keys(d.json) == StartKeepaliveParamsTests.allFields.filter { $0.hasPrefix("ios") }.sorted())
        #expect(d.json["iosProcessingSafetyTimeoutSecs"] == .null)
        expectRoundTrip(d)
        var c = d
        c.iosProcessingSafetyTimeoutSecs = 45.5
        expectRoundTrip(c)
    }

    static var snapshot: PluginStateSnapshot {
        PluginStateSnapshot(
            now: VirtualTime(seconds: 928)!, clock: .virtual, profile: .strict,
            activeTask: .init(
                identifier: "com.example.app.bg-refresh", kind: .refresh, launchedAt: VirtualTime(seconds: 900)!),
            pendingCancelInvoke: .string("w1"), safetyTimerDeadline: VirtualTime(seconds: 928)!, config: .defaults,
            pendingRequests: [processing],
            registered: [.init(identifier: "com.example.app.bg-refresh", kind: .refresh)],
            conditions: .defaults, counters: .init(launched: 1, completed: 0, expired: 0, violations: 0, dropped: 2),
            cancelInvokePending: true, notificationAuthorizationRequests: 1)
    }

    @Test("plugin/state snapshot has the contract's members")
    func snapshotShape() throws {
        let v = MethodResultsTests.snapshot.json
        for k in [
            "now", "clock", "profile", "activeTask", "pendingCancelInvoke", "safetyTimer", "config", "pendingRequests",
            "registered", "conditions", "counters",
        ] {
            #expect(v[k] != nil, "missing \(k)")
        }
        #expect(keys(try #require(v["activeTask"])) == ["identifier", "kind", "launchedAt"])
        #expect(v["safetyTimer"] == ["deadline": 928])
        #expect(v["pendingCancelInvoke"] == "w1")
        #expect(
            Set(keys(try #require(v["counters"]))).isSuperset(of: ["launched", "completed", "expired", "violations"]))
        expectRoundTrip(MethodResultsTests.snapshot)
    }

    @Test("plugin/state snapshot with nothing active writes nulls")
    func idleSnapshot() {
        var s = MethodResultsTests.snapshot
        s.activeTask = nil
        s.pendingCancelInvoke = nil
        s.safetyTimerDeadline = nil
        s.cancelInvokePending = nil
        s.notificationAuthorizationRequests = nil
        s.counters.dropped = nil
        let v = s.json
        #expect(v["activeTask"] == .null)
        #expect(v["pendingCancelInvoke"] == .null)
        #expect(v["safetyTimer"] == .null)
        #expect(v["cancelInvokePending"] == nil)
        #expect(v["counters"]?["dropped"] == nil)
        expectRoundTrip(s)
        s.pendingCancelInvoke = .int(3)
        expectRoundTrip(s)
    }

    @Test("event params round trip and keep the contract's member names")
    func events() {
        let submitted = MethodResultsTests.refresh
        expectRoundTrip(submitted)
        let failed = SubmitFailedEvent.Params(identifier: "x", error: .tooManyPendingTaskRequests)
        #expect(text(failed.json) == #"{"error":"tooManyPendingTaskRequests","identifier":"x"}"#)
        expectRoundTrip(failed)
        let launched = TaskEventParams(identifier: "r", at: MethodResultsTests.at, kind: .processing)
        #expect(keys(launched.json) == ["at", "identifier", "kind"])
        expectRoundTrip(launched)
        let completed = TaskEventParams(identifier: "r", at: .zero, success: false)
        #expect(text(completed.json) == #"{"at":0,"identifier":"r","success":false}"#)
        expectRoundTrip(completed)
        expectRoundTrip(TaskEventParams(identifier: "r", at: VirtualTime(nanoseconds: 1)))
        let violation = ViolationEvent.Params(rule: "exactly-once", detail: "second setTaskCompleted")
        #expect(keys(violation.json) == ["detail", "rule"])
        expectRoundTrip(violation)
        for state in SafetyTimerEvent.State.allCases {
            let p = SafetyTimerEvent.Params(state: state, deadline: VirtualTime(seconds: 28)!)
            #expect(text(p.json) == #"{"deadline":28,"state":"\#(state.rawValue)"}"#)
            expectRoundTrip(p)
        }
        expectRoundTrip(IdentifierParams(identifier: "com.example.app.bg-processing"))
        expectRoundTrip(
            OSSubmit.Params(
                identifier: "p", kind: .processing, earliestBeginDate: VirtualTime(seconds: 60)!,
                requiresExternalPower: true))
    }
}
