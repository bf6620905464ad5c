import HostProtocol
import Testing

@testable import EmulatedIOS

/// Rule ios.usage at the OS's level (`docs/rules.md`, "App usage"): with the policy's
/// `usageScheduling`, a launch comes at least an interval divided by the usage score after
/// the previous one of its identifier, the score halving per day unused; an app unused for a
/// week gets nothing until the user opens it; off by default, nothing of it shows.
@Suite("ios: scheduling driven by use")
struct UsageSchedulingTests {
    typealias Alone = EmulatedOSAloneTests

    /// An OS whose requests launch at their earliest begin date, with `usageScheduling` as given.
    static func makeOS(usage: Bool) throws -> (EmulatedOS, () -> [Alone.TinyApp]) {
        let (os, apps) = try Alone.makeOS(ios: IOSSystem(seed: 0))
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

    @Test func offByDefaultNothingOfItShows() throws {
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
        #expect(reason.detail.hasPrefix("usage score 1.00"))
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
        #expect(reason.detail.hasPrefix("usage score 0.50 (last used 1.0 days before it)"))
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
}
