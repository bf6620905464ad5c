import HostProtocol
import Testing

@Suite("MethodRegistry and method names")
struct MethodRegistryTests {
    /// The contract's methods (sections 3 and 5), in its order, with os/submit,
    /// plugin/dispatchSchedule and rpc.discover as this implementation's extensions.
    static let contract: [(String, MethodKind, Bool)] = [
        ("startKeepalive", .invoke, false), ("waitForCancel", .invoke, false), ("completeBgTask", .invoke, false),
        ("stopKeepalive", .invoke, false), ("cancelCancelListener", .invoke, false),
        ("os/launch", .osControl, false), ("os/expire", .osControl, false), ("os/advanceTime", .osControl, false),
        ("os/pendingTaskRequests", .osControl, false), ("os/setConditions", .osControl, false),
        ("os/submit", .osControl, true),
        ("initialize", .session, false), ("shutdown", .session, false), ("plugin/state", .session, false),
        ("plugin/reset", .session, false),
        ("plugin/dispatchSchedule", .session, true),
        ("rpc.discover", .session, true),
    ]

    @Test("the registry lists exactly the contract's methods, in order")
    func names() {
        #expect(MethodRegistry.methods.map(\.name) == MethodRegistryTests.contract.map(\.0))
    }

    @Test("every method name is unique")
    func unique() {
        #expect(Set(MethodRegistry.methods.map(\.name)).count == MethodRegistry.methods.count)
        #expect(Set(MethodRegistry.events).count == MethodRegistry.events.count)
        #expect(Set(MethodRegistry.methods.map(\.name)).isDisjoint(with: MethodRegistry.events))
    }

    @Test("kinds and extension flags", arguments: contract)
    func entry(name: String, kind: MethodKind, isExtension: Bool) throws {
        let e = try #require(MethodRegistry.method(named: name))
        #expect(e.name == name)
        #expect(e.kind == kind)
        #expect(e.isExtension == isExtension)
    }

    @Test(
        "unknown and near-miss names are not methods",
        arguments: [
            "", "StartKeepalive", "startkeepalive", "os/Launch", "os/launch ", "plugin/State", "os/submitFailed",
            "exit",
        ])
    func unknown(name: String) {
        #expect(MethodRegistry.method(named: name) == nil)
    }

    @Test("each method type carries the contract's name")
    func typeNames() {
        func check<M: RPCMethod>(
            _: M.Type, _ name: String, _ kind: MethodKind, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            #expect(M.name == name, sourceLocation: sourceLocation)
            #expect(M.kind == kind, sourceLocation: sourceLocation)
        }
        check(StartKeepalive.self, "startKeepalive", .invoke)
        check(WaitForCancel.self, "waitForCancel", .invoke)
        check(CompleteBgTask.self, "completeBgTask", .invoke)
        check(StopKeepalive.self, "stopKeepalive", .invoke)
        check(CancelCancelListener.self, "cancelCancelListener", .invoke)
        check(OSLaunch.self, "os/launch", .osControl)
        check(OSExpire.self, "os/expire", .osControl)
        check(OSAdvanceTime.self, "os/advanceTime", .osControl)
        check(OSPendingTaskRequests.self, "os/pendingTaskRequests", .osControl)
        check(OSSetConditions.self, "os/setConditions", .osControl)
        check(OSSubmit.self, "os/submit", .osControl)
        check(Initialize.self, "initialize", .session)
        check(Shutdown.self, "shutdown", .session)
        check(PluginStateMethod.self, "plugin/state", .session)
        check(PluginReset.self, "plugin/reset", .session)
        check(RPCDiscover.self, "rpc.discover", .session)
    }

    @Test("events are the contract's section 6 names, in order")
    func events() {
        #expect(
            MethodRegistry.events == [
                "os/requestSubmitted", "os/submitFailed", "os/requestCancelled", "os/taskLaunched", "os/taskExpired",
                "os/taskCompleted", "os/violation", "plugin/safetyTimer",
            ])
        #expect(TaskCompletedEvent.name == "os/taskCompleted")
        #expect(SafetyTimerEvent.name == "plugin/safetyTimer")
        #expect(SubmitFailedEvent.name == "os/submitFailed")
    }

    @Test("only os/submit, plugin/dispatchSchedule and rpc.discover are extensions")
    func extensions() {
        #expect(
            MethodRegistry.methods.filter(\.isExtension).map(\.name) == [
                "os/submit", "plugin/dispatchSchedule", "rpc.discover",
            ])
        #expect(PluginDispatchSchedule.name == "plugin/dispatchSchedule")
        #expect(PluginDispatchSchedule.kind == .session)
    }

    /// A misspelled method name's likely meaning: equal but for case, else the nearest within
    /// two edits, among the methods the plugin's `--os` mode serves; nothing for a far name.
    @Test(
        arguments: [
            ("startKeepAlive", OSMode.manual, "startKeepalive"),
            ("PLUGIN/STATE", .manual, "plugin/state"),
            ("os/lunch", .manual, "os/launch"),
            ("os/advanceTim", .manual, "os/advanceTime"),
            ("completeBgTsk", .manual, "completeBgTask"),
            ("os/explian", .ios, "os/explain"),
            ("os/explian", .manual, nil),
            ("os/terminate", .manual, nil),
            ("nope", .manual, nil),
            ("", .manual, nil),
            ("os/advance", .manual, nil),
            (String(repeating: "startKeepalive", count: 100), .manual, nil),
        ] as [(String, OSMode, String?)])
    func suggestion(name: String, os: OSMode, expected: String?) {
        #expect(MethodRegistry.suggestion(for: name, os: os) == expected)
    }

    @Test func methodNotFoundCarriesTheSuggestion() {
        #expect(
            RPCError.methodNotFound("os/lunch", suggestion: "os/launch").message
                == "Method not found: os/lunch (did you mean os/launch?)")
        #expect(RPCError.methodNotFound("nope").message == "Method not found: nope")
        #expect(RPCError.methodNotFound("nope", suggestion: "x").code == .methodNotFound)
    }
}
