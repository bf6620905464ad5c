import HostProtocol
import Testing

@testable import EmulatedIOS

/// Rule ios.usage at the OS's level (`docs/rules.md`, "App usage"): with the policy's
/// `usageScheduling`, a launch comes at least an interval divided by the usage score after
/// the previous one of its identifier, the score halving per day unused; an app unused for a
/// week gets nothing until the user opens it; on by default, off under `--ios-defaults legacy`
/// (where nothing of it shows).
@Suite("ios: scheduling driven by use")
struct UsageSchedulingTests {
    typealias Alone = EmulatedOSAloneTests

    /// An OS whose requests launch at their earliest begin date, from the legacy defaults (no
    /// app states: these tests are about the score alone) with `usageScheduling` as given.
    static func makeOS(usage: Bool) throws -> (EmulatedOS, () -> [Alone.TinyApp]) {
        let (os, apps) = try Alone.makeOS(ios: IOSSystem(seed: 0, defaults: .legacy))
        var update = IOSPolicy.Update(refreshDelayMaxSecs: 0, refreshEarlyExpiryChance: 0)
        if usage { update.usage = .init(usageScheduling: true) }
        _ = try os.setPolicy(update)
        return (os, apps)
    }

    static func seconds(_ s: Double) -> VirtualTime { VirtualTime(seconds: s)! }

    /// Submits a refresh request due at `at` and moves the clock there: it launches.
    static func launch(_ os: EmulatedOS, at: Double) throws {
        try os.scheduler.submit(Alone.refreshRequest(at: at))
        os.advance(to: seconds(at))
    }

    static func usageReason(_ os: EmulatedOS) -> LaunchReason? {
        os.explain(Alone.refresh).reasons.first { $0.factor == .appUsage }
    }

    @Test func onByDefaultAndUnderLegacyNothingOfItShows() throws {
        #expect(
            IOSSystem(seed: 0).policy.schedulesByUsage && !IOSSystem(seed: 0, defaults: .legacy).policy.schedulesByUsage
        )
        let (os, apps) = try Self.makeOS(usage: false)
        try Self.launch(os, at: 60)
        try os.scheduler.submit(Alone.refreshRequest(at: 700))
        #expect(Self.usageReason(os) == nil)
        os.advance(to: Self.seconds(700))
        #expect(apps()[0].launches == [Self.seconds(60), Self.seconds(700)])
    }

    @Test func aRefreshLaunchWaitsSixHoursAfterTheLastAtFullUse() throws {
        let (os, apps) = try Self.makeOS(usage: true)
        try Self.launch(os, at: 0)
        #expect(apps()[0].launches == [.zero])
        try os.scheduler.submit(Alone.refreshRequest(at: 60))
        let reason = try #require(Self.usageReason(os))
        #expect(reason.until == Self.seconds(21_600))
        #expect(reason.detail.hasPrefix("usage score 1 (last used 0.0 days before it)"))
        os.advance(to: Self.seconds(21_599))
        #expect(apps()[0].launches.count == 1)
        os.advance(to: Self.seconds(21_600))
        #expect(apps()[0].launches == [.zero, Self.seconds(21_600)])
    }

    @Test func aDayUnusedHalvesTheScoreAndDoublesTheWait() throws {
        let (os, _) = try Self.makeOS(usage: true)
        try Self.launch(os, at: 86_400)
        try os.scheduler.submit(Alone.refreshRequest(at: 86_460))
        let reason = try #require(Self.usageReason(os))
        #expect(reason.until == Self.seconds(86_400 + 43_200))
        #expect(
            reason.detail.hasPrefix(
                "usage score 0.5 (last used 1.0 days before it): refresh launches at least 6.0 h / score = 12.0 h apart"
            ))
    }

    @Test func aWeekUnusedLaunchesNothingUntilTheUserOpensTheApp() throws {
        let (os, apps) = try Self.makeOS(usage: true)
        os.advance(to: Self.seconds(8 * 86_400))
        try os.scheduler.submit(Alone.refreshRequest(at: 8 * 86_400 + 60))
        let explanation = os.explain(Alone.refresh)
        let reason = try #require(Self.usageReason(os))
        #expect(reason.until == nil && explanation.nextPossibleAt == nil)
        #expect(reason.detail.contains("last used 8.0 days ago") && reason.detail.contains("until the user opens it"))
        os.advance(to: Self.seconds(9 * 86_400))
        #expect(apps()[0].launches.isEmpty)
        os.terminateApp(reason: .system)
        _ = try os.openApp()
        #expect(Self.usageReason(os) == nil)
        os.advance(to: Self.seconds(9 * 86_400 + 1))
        #expect(apps().last?.launches == [Self.seconds(9 * 86_400)])
    }

    @Test func aHalfLifeOfZeroWaitsAYearNotNothing() throws {
        let (os, _) = try Self.makeOS(usage: true)
        var update = IOSPolicy.Update()
        update.usage = .init(usageHalfLifeSecs: 0)
        _ = try os.setPolicy(update)
        try Self.launch(os, at: 60)
        try os.scheduler.submit(Alone.refreshRequest(at: 120))
        let reason = try #require(Self.usageReason(os))
        #expect(reason.until == Self.seconds(60 + IOSPolicy.maxSeconds))
        #expect(reason.detail.hasPrefix("usage score 0 "))
    }

    @Test func aProcessingLaunchWaitsAtMostTwoDays() throws {
        let (os, _) = try Self.makeOS(usage: true)
        let request = BGProcessingTaskRequest(identifier: "com.example.app.bg-processing")
        // The previous launch came two days after the last use: score 0.25, a day / 0.25 = 4 days.
        os.ios?.lastLaunch[request.identifier] = Self.seconds(2 * 86_400)
        let spacing = try #require(os.usageSpacing(for: request))
        #expect(spacing.until == Self.seconds(4 * 86_400))
        #expect(spacing.detail.contains("(capped: two days)"))
        os.ios?.lastLaunch[request.identifier] = Self.seconds(3600)
        #expect(os.usageSpacing(for: request)?.until.seconds ?? 0 > 86_400)
    }

    @Test func aUseSinceTheLastLaunchCountsAsFullUse() throws {
        let (os, _) = try Self.makeOS(usage: true)
        try Self.launch(os, at: 86_400)
        os.advance(to: Self.seconds(90_000))
        os.terminateApp(reason: .system)
        _ = try os.openApp()
        try os.scheduler.submit(Alone.refreshRequest(at: 90_060))
        #expect(Self.usageReason(os)?.until == Self.seconds(86_400 + 21_600))
    }

    @Test func withAppStatesTheForegroundIsUseUntilTheUserLeaves() throws {
        let (os, _) = try Self.makeOS(usage: true)
        var update = IOSPolicy.Update()
        update.appStates = .init(appStates: true, jetsamChance: 0)
        _ = try os.setPolicy(update)
        os.advance(to: Self.seconds(1000))
        _ = try os.openApp()
        os.advance(to: Self.seconds(5000))
        #expect(os.appState == .foreground && os.idleSeconds(at: Self.seconds(5000)) == 0)
        _ = try os.sendToBackground()
        #expect(os.ios?.lastUsedAt == Self.seconds(5000))
        #expect(os.idleSeconds(at: Self.seconds(5100)) == 100)
    }

    @Test("the usage members: ranges, errors in member order, written only when set")
    func policyMembers() throws {
        func error(_ text: String) -> String? {
            guard let json = try? JSONParser.parse(Array(text.utf8)) else { return "not JSON" }
            do {
                _ = try IOSPolicy.Update(json: json)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(
            error(#"{"usageHalfLifeSecs":-1,"appStates":1}"#)
                == #""appStates" must be a boolean, got number"#)
        #expect(
            error(#"{"usageWindowSecs":-1}"#)
                == #""usageWindowSecs" must be a number of seconds from 0 to 31536000, got -1"#)
        #expect(error(#"{"usageScheduling":"yes"}"#) == #""usageScheduling" must be a boolean, got string"#)
        var update = IOSPolicy.Update()
        update.usage = .init(
            usageScheduling: true, usageHalfLifeSecs: 3600, usageWindowSecs: 0, usageRefreshIntervalSecs: 60,
            usageProcessingIntervalSecs: 0.5)
        #expect(try IOSPolicy.Update(json: update.json) == update)
        let policy = IOSPolicy.defaults.applying(update)
        #expect(try IOSPolicy(json: policy.json) == policy && policy.schedulesByUsage)
        #expect(IOSPolicy.legacy.json.objectValue?.keys.contains { $0.hasPrefix("usage") } == false)
        #expect(IOSPolicy.defaults.json.objectValue?.keys.filter { $0.hasPrefix("usage") } == ["usageScheduling"])
    }
}
