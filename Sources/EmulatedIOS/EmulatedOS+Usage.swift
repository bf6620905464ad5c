import Foundation
import HostProtocol

/// Scheduling driven by use, under the policy's `usageScheduling` (issue 23).
///
/// WWDC20 "Background execution demystified" lists app usage among the factors of every
/// discretionary launch (the apps the user uses most get launched most), and Apple's
/// `BGProcessingTaskRequest` header promises a processing launch within two days "as long as
/// the user has used your app within the past week". The model (`docs/rules.md`, "App usage"):
///
/// - **Use.** The user uses the app when `os/openApp` starts it or brings it forward, and,
///   with `appStates`, all the while it is in the foreground (its use ends when it leaves).
///   The session's start counts as a use (the app was just opened or installed).
/// - **The score** is 1 in use and halves every `usageHalfLifeSecs` (a day) without it:
///   `0.5 ^ (idle / halfLife)`.
/// - **A week unused** (`usageWindowSecs`): no discretionary launch, refresh or processing,
///   until the user opens the app (factor `appUsage`, a condition: no `until`).
/// - **Spacing.** A launch comes at least an interval divided by the score after the previous
///   launch of its identifier: `usageRefreshIntervalSecs` (6 h) for refresh,
///   `usageProcessingIntervalSecs` (a day) for processing, the score taken when that launch
///   came (so the wait is fixed once known; a use since then counts as a score of 1). A score
///   of 0 (a half-life of 0, or one so short that the power underflows) waits the longest
///   duration the policy has, a year. A processing launch waits at most two days
///   (``processingPromiseSecs``): Apple promises one "within the next two days" to an app used
///   within the week, and an app unused for longer gets none anyway (the window).
extension EmulatedOS {
    /// The longest a processing launch waits for its spacing: two days, Apple's promise.
    package static let processingPromiseSecs: Double = 172_800

    /// Whether the policy's usage model is on.
    package var schedulesByUsage: Bool { ios?.policy.schedulesByUsage == true }

    /// `plugin/state`'s `ios.lastUsedAt`: with `usageScheduling`, the last use (now while the app
    /// is in the foreground under `appStates`); nil otherwise.
    package var lastUsedAt: VirtualTime? {
        guard let ios, schedulesByUsage else { return nil }
        return modelsAppStates && appState == .foreground ? clock.now : ios.lastUsedAt
    }

    /// Seconds since the app was last used at `t` (0 while in the foreground under `appStates`).
    package func idleSeconds(at t: VirtualTime) -> Double {
        guard let ios else { return 0 }
        if modelsAppStates, appState == .foreground { return 0 }
        return max(0, t.subtracting(ios.lastUsedAt).seconds)
    }

    /// The usage score for an idle time: `0.5 ^ (idle / halfLife)`; 1 with no idle time, 0 with
    /// a half-life of 0 and some (and when the power underflows).
    package func usageScore(idleSeconds idle: Double) -> Double {
        let halfLife = ios?.policy.effectiveUsageHalfLifeSecs ?? 86_400
        guard idle > 0 else { return 1 }
        guard halfLife > 0 else { return 0 }
        return pow(0.5, idle / halfLife)
    }

    /// `appUsage` as a condition: the app has not been used within the window.
    package func unusedDetail(for request: BGTaskRequest) -> String? {
        guard let ios, schedulesByUsage else { return nil }
        let idle = idleSeconds(at: clock.now)
        guard idle > ios.policy.effectiveUsageWindowSecs else { return nil }
        return "the app was last used \(days(idle)) ago (at \(clockText(ios.lastUsedAt))); iOS launches nothing "
            + "discretionary for an app not used within \(days(ios.policy.effectiveUsageWindowSecs)), "
            + "until the user opens it"
    }

    /// `appUsage` as a wait: a launch's spacing after the previous one of its identifier, by the
    /// score when that one came.
    package func usageSpacing(for request: BGTaskRequest) -> (until: VirtualTime, detail: String)? {
        guard let ios, schedulesByUsage, let last = ios.lastLaunch[request.identifier]
        else { return nil }
        let used = ios.lastUsedAt > last || (modelsAppStates && appState == .foreground)
        let score = used ? 1 : usageScore(idleSeconds: max(0, last.subtracting(ios.lastUsedAt).seconds))
        let interval =
            request.kind == .refresh
            ? ios.policy.effectiveUsageRefreshIntervalSecs : ios.policy.effectiveUsageProcessingIntervalSecs
        var seconds = score > 0 ? min(interval / score, IOSPolicy.maxSeconds) : IOSPolicy.maxSeconds
        if request.kind == .processing { seconds = min(seconds, Self.processingPromiseSecs) }
        guard let wait = VirtualTime.nanoseconds(fromSeconds: seconds) else { return nil }
        let until = last.adding(nanoseconds: wait)
        let lastUse = used ? "since its last launch" : days(idle(at: last)) + " before it"
        let capped = request.kind == .processing && seconds == Self.processingPromiseSecs ? " (capped: two days)" : ""
        return (
            until,
            "usage score \(String(format: "%.3g", score)) (last used \(lastUse)): \(request.kind.rawValue) launches "
                + "at least \(hours(interval)) / score = \(hours(seconds))\(capped) apart, "
                + "the next at \(clockText(until))"
        )
    }

    private func idle(at t: VirtualTime) -> Double { max(0, t.subtracting(ios?.lastUsedAt ?? .zero).seconds) }

    private func days(_ seconds: Double) -> String { String(format: "%.1f days", seconds / 86_400) }

    private func hours(_ seconds: Double) -> String { String(format: "%.1f h", seconds / 3600) }
}
