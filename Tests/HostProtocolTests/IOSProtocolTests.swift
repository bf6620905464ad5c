import HostProtocol
import Testing

/// The `--os ios` wire types: registry, names, round trips, defaults.
@Suite("ios wire types")
struct IOSProtocolTests {
    @Test("the ios methods and events are registered apart from the contract's")
    func registry() {
        #expect(
            MethodRegistry.iosMethods.map(\.name) == [
                "os/terminate", "os/openApp", "os/explain", "os/setPolicy", "os/webviewCreated", "os/blockMain",
                "os/sendToBackground",
            ])
        #expect(MethodRegistry.iosMethods.allSatisfy { $0.kind == .osControl && $0.isExtension })
        #expect(
            MethodRegistry.iosEvents == [
                "os/appLaunched", "os/appTerminated", "os/launchDeferred", "os/appStateChanged",
            ])
        #expect(MethodRegistry.method(named: "os/explain") == nil)
        #expect(MethodRegistry.method(named: "os/explain", os: .ios)?.name == "os/explain")
        #expect(MethodRegistry.method(named: "os/explain", os: .manual) == nil)
        #expect(MethodRegistry.method(named: "os/launch", os: .ios)?.name == "os/launch")
        let all = MethodRegistry.methods.map(\.name) + MethodRegistry.iosMethods.map(\.name)
        #expect(Set(all).count == all.count)
        #expect(Set(all).isDisjoint(with: MethodRegistry.events + MethodRegistry.iosEvents))
    }

    @Test("enum raw values are the wire strings")
    func enums() {
        #expect(OSMode.allCases.map(\.rawValue) == ["manual", "ios", "simulator"])
        #expect(
            ExpirationCause.allCases.map(\.rawValue) == [
                "simulated", "budget", "externalPowerLost", "networkLost", "deviceInUse", "foreground",
            ])
        #expect(TerminationReason.allCases.map(\.rawValue) == ["system", "forceQuit", "watchdog", "crash", "jetsam"])
        #expect(LaunchCause.allCases.map(\.rawValue) == ["user", "backgroundTask"])
        #expect(AppPhase.allCases.map(\.rawValue) == ["launching", "running", "notRunning"])
        #expect(LaunchFactor.allCases.count == 20 && LaunchFactor.allCases.last == .appUsage)
        #expect(AppState.allCases.map(\.rawValue) == ["foreground", "background", "suspended", "notRunning"])
        #expect(RPCError.appNotRunning.rejectReason == .terminated && RPCError.appNotRunning.code == .invokeRejected)
    }

    @Test("values survive JSON and back")
    func roundTrips() throws {
        let policy = IOSPolicy.defaults.applying(
            .init(watchdogGraceSecs: 1.5, energyBudgetLaunches: 3, pluginLoadsLate: true))
        #expect(try IOSPolicy(json: policy.json) == policy)
        let conditions = Conditions.iosDefaults
        #expect(try Conditions(json: conditions.json) == conditions)
        #expect(try Conditions(json: Conditions.defaults.json).ios == nil)
        let why = LaunchExplanation(
            identifier: "x", status: .pending,
            reasons: [
                LaunchReason(factor: .energyBudget, detail: "d", until: VirtualTime(seconds: 3)),
                LaunchReason(factor: .lowPowerMode, detail: "e"),
            ],
            nextPossibleAt: nil, earliestBeginDate: .zero, plannedAt: VirtualTime(seconds: 2))
        #expect(try LaunchExplanation(json: why.json) == why)
        let status = AppStatus(
            phase: .notRunning, launchCause: .backgroundTask, launchedAt: VirtualTime(seconds: 9)!, forceQuit: true,
            registrationError: "r", lastTermination: .init(reason: .watchdog, at: VirtualTime(seconds: 10)!),
            launches: 4)
        #expect(try AppStatus(json: status.json) == status)
        let snapshot = IOSStateSnapshot(
            app: status, policy: policy,
            energy: .init(launchesAvailable: 1, capacity: 2, fullAt: VirtualTime(seconds: 5)!),
            runningTask: .init(identifier: "x", budgetDeadline: nil, expiredAt: .zero, watchdogDeadline: .zero),
            nextEventAt: VirtualTime(seconds: 4))
        #expect(try IOSStateSnapshot(json: snapshot.json) == snapshot)
        let expired = TaskEventParams(identifier: "x", at: .zero, cause: .networkLost)
        #expect(try TaskEventParams(json: expired.json) == expired)
        #expect(TaskEventParams(identifier: "x", at: .zero).json["cause"] == nil)
        let launched = AppLaunchedEvent.Params(cause: .backgroundTask, at: .zero, identifier: "x")
        #expect(try AppLaunchedEvent.Params(json: launched.json) == launched)
        let terminated = AppTerminatedEvent.Params(reason: .forceQuit, at: .zero)
        #expect(try AppTerminatedEvent.Params(json: terminated.json) == terminated)
        let deferred = LaunchDeferredEvent.Params(
            identifier: "x", at: .zero, reasons: why.reasons, nextPossibleAt: VirtualTime(seconds: 1))
        #expect(try LaunchDeferredEvent.Params(json: deferred.json) == deferred)
        let result = Initialize.Result(
            serverName: "s", serverVersion: "1", bundleIdentifier: "b", refreshIdentifier: "r",
            processingIdentifier: "p",
            clock: .virtual, profile: .seed, os: .ios, osSeed: .max)
        #expect(try Initialize.Result(json: result.json) == result)
    }

    @Test(
        "params checks",
        arguments: [
            #"{"reason":"watchdog"}"#, #"{"reason":"reboot"}"#, #"{}"#,
        ])
    func terminateParams(json: String) throws {
        #expect(throws: JSONDecodingError.self) { try OSTerminate.Params(json: try JSONParser.parse(Array(json.utf8))) }
    }
}
