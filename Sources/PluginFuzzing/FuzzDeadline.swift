import Foundation

/// When a fuzzing run ends (`fuzz --time`), whatever the plugin does: no case or
/// shrinking attempt starts after ``end``; one still running then has ``grace`` to
/// finish, and at ``hardStop`` its plugin is stopped and the run reports the plugin as
/// failing (``PluginDriver/DriverError/timeUp(received:exited:)``). A run therefore
/// ends within `--time` plus ``grace`` plus the time to stop a plugin and print the
/// report (`docs/fuzzing.md`, "Time and memory bounds": under 5 s past `--time`).
///
/// ```swift
/// let deadline = FuzzDeadline(seconds: 10)
/// while !deadline.passed { runOneCase() }
/// ```
public struct FuzzDeadline: Sendable, Hashable {
    /// How long a case or shrinking attempt in progress at ``end`` may take to finish (3 s).
    public static let grace: Double = 3

    /// No time limit (a run bounded by its number of cases, `--runs`).
    public static let none = FuzzDeadline(end: nil)

    /// When the run stops starting cases; nil: never (no time limit).
    public let end: Date?

    /// A deadline at `end`.
    public init(end: Date?) {
        self.end = end
    }

    /// A deadline `seconds` after `start` (nil seconds: none).
    public init(seconds: Double?, from start: Date = Date()) {
        end = seconds.map { start.addingTimeInterval($0) }
    }

    /// When what still runs is stopped: ``end`` plus ``grace``.
    public var hardStop: Date? { end?.addingTimeInterval(Self.grace) }

    /// Whether ``end`` has passed.
    public var passed: Bool { end.map { Date() >= $0 } ?? false }
}
