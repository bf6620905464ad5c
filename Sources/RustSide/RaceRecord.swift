/// One decided race: which side went first, in which run (nil: not tied to a run) of
/// which app process (1 but under `--os ios`, where each process has its own Rust side).
public struct RaceRecord: Sendable, Hashable, CustomStringConvertible {
    /// The race decided.
    public let race: Race
    /// The run (generation) it was decided for; nil when it is not tied to a run.
    public let run: UInt64?
    /// The side that went first.
    public let first: Race.Side
    /// The app process whose Rust side met it (1 but under `--os ios`).
    public let process: Int

    /// Creates a record.
    public init(race: Race, run: UInt64?, first: Race.Side, process: Int = 1) {
        self.race = race
        self.run = run
        self.first = first
        self.process = process
    }

    /// `completion-first`.
    public var order: String { race.order(first) }

    /// `race NAME (process P, run R): ORDER`, as the timeline notes it.
    public var description: String {
        let whose = [process > 1 ? "process \(process)" : nil, run.map { "run \($0)" }].compactMap { $0 }
        return "race \(race.rawValue)\(whose.isEmpty ? "" : " (" + whose.joined(separator: ", ") + ")"): \(order)"
    }
}
