import HostProtocol
import HostSimulation
import PluginHost
import RustSide

/// The ios day's sixth part (issue 23; the default, not with `--legacy`): the app's states. The user
/// opens the app (foreground), leaves it (background), iOS suspends it, a refresh launch
/// wakes it, and the user opening the app 10 s into the task expires it (cause
/// `foreground`). What the notes say is read from the timeline and from what iOS answers.
extension IOSDemoScenario {
    /// How far into the refresh task the user opens the app: within the safety timer.
    static let openIntoTask: Double = 10

    func playAppStates(on sim: SystemSimulation) throws(SystemSimulation.SimulationError) {
        var story = DemoStory(sim)
        func wait(_ seconds: Double) throws(SystemSimulation.SimulationError) {
            guard seconds > 0 else { return }
            try sim.advance(by: VirtualTime(seconds: seconds)!)
        }
        sim.note(
            "From now on iOS tracks the app's states (the policy's appStates): foreground, background, "
                + "suspended; one task at a time, and no jetsam today (jetsamChance 0)")
        var policy = IOSPolicy.Update(maxConcurrentTasks: .some(1))
        policy.appStates = .init(appStates: true, jetsamChance: 0)
        _ = try sim.os(OSSetPolicy.self, policy)
        if sim.currentProcess.serviceRunning {
            sim.note("The app stops the sync service, to start afresh")
            try sim.host { try? await $0.stop() }
        }

        var mark = sim.timeline.count
        _ = try sim.os(OSOpenApp.self, EmptyParams())
        sim.note("The user opens the app: " + Self.opened(Self.appEvents(sim, since: mark)))
        sim.note("The app starts the sync service (both requests due in 15 min); the user uses the app for a minute")
        try sim.host { manager in
            do { try await manager.start(config) } catch { sim.note("start failed: \(error)") }
        }
        try wait(60)

        mark = sim.timeline.count
        let left = sim.now
        let moved = try? sim.os(OSSendToBackground.self, EmptyParams()).get()
        sim.note(
            "The user leaves the app (os/sendToBackground): "
                + (moved.map { "it is in the \($0.state.rawValue)" } ?? "refused"))
        try wait(10)
        let suspended = Self.appEvents(sim, since: mark).first { $0.state == .suspended }
        sim.note(
            suspended.map { "iOS suspended the app \(DemoStory.seconds(from: left, to: $0.at)) after the user left it" }
                ?? "iOS did not suspend the app")

        story.restart()
        mark = sim.timeline.count
        for _ in 0..<4 where story.launchedAt(sim.refreshIdentifier) == nil {
            let e = try? sim.os(OSExplain.self, .init(identifier: sim.refreshIdentifier)).get()
            let next = e?.nextPossibleAt ?? e?.plannedAt
            try wait(next.map { $0.seconds - sim.now.seconds } ?? 900)
        }
        guard let launched = story.launchedAt(sim.refreshIdentifier) else {
            sim.note(story.outcome(of: sim.refreshIdentifier))
            return
        }
        let woke = Self.appEvents(sim, since: mark).first { $0.state == .background && $0.identifier != nil }
        sim.note(
            woke.map { "iOS woke the suspended app for the refresh task at \(TimelineRenderer.clock($0.at))" }
                ?? "iOS launched the refresh task at \(TimelineRenderer.clock(launched)) (the app was not suspended)")
        try wait(launched.seconds + Self.openIntoTask - sim.now.seconds)

        let into = DemoStory.seconds(from: launched, to: sim.now)
        _ = try sim.os(OSOpenApp.self, EmptyParams())
        try wait(5)
        sim.note("The user opens the app \(into) into the refresh task: " + story.clause(sim.refreshIdentifier))
    }

    /// The app's moves since `mark`: `os/appStateChanged`, and `os/appLaunched` as the
    /// state it starts in (the user's launch: foreground; a task's: background).
    static func appEvents(_ sim: SystemSimulation, since mark: Int) -> [AppStateChange] {
        let all = sim.timeline
        return all[min(mark, all.count)...].compactMap { e -> AppStateChange? in
            guard case .event(let n) = e.kind else { return nil }
            if n.method == AppStateChangedEvent.name { return try? AppStateChange(json: n.params ?? .null) }
            guard n.method == AppLaunchedEvent.name, let p = try? AppLaunchedEvent.Params(json: n.params ?? .null)
            else { return nil }
            return AppStateChange(
                state: p.cause == .user ? .foreground : .background, at: p.at, identifier: p.identifier)
        }
    }

    /// Where opening the app put it, in words.
    static func opened(_ moves: [AppStateChange]) -> String {
        guard let last = moves.last else { return "nothing changed" }
        return last.state == .foreground ? "it is in the foreground" : "it is \(last.state.rawValue)"
    }
}
