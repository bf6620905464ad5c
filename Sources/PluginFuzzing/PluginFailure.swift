/// Why a fuzzing run stopped before its end: the plugin could not be started, or it
/// broke the transport (it ended, went silent, flooded the host, wrote what is not a
/// frame or wrote outside a step). Never a finding of the plugin's rules: the run
/// could not judge them, and the commands exit 2 (``Kind/didNotStart``) or 3
/// (``Kind/misbehaved``), not 1, and write no trace for it (`docs/fuzzing.md`, "When
/// the plugin fails").
///
/// ```swift
/// do {
///     findings = try fuzzer.run()
/// } catch {
///     print(error.reason)                 // "the plugin did not start: it exited with status 1 ..."
///     error.stderr.forEach { print($0) }  // the plugin's last stderr lines
/// }
/// ```
public struct PluginFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The two kinds of failure, which the commands tell apart by exit status.
    public enum Kind: Sendable, Hashable {
        /// The plugin could not be started, or ended before the run could begin.
        case didNotStart
        /// The plugin broke the transport during the run.
        case misbehaved
    }

    /// Which kind.
    public var kind: Kind
    /// What happened, in words, with the figures.
    public var reason: String
    /// The last lines of the plugin's stderr (``StderrTail``).
    public var stderr: [String]
    /// The case in progress (from 0), when the failure came while running one.
    public var caseIndex: Int?
    /// That case's seed.
    public var caseSeed: UInt64?
    /// Whether it came while shrinking a finding.
    public var whileShrinking = false

    /// A failure.
    public init(
        kind: Kind, reason: String, stderr: [String] = [], caseIndex: Int? = nil, caseSeed: UInt64? = nil,
        whileShrinking: Bool = false
    ) {
        self.kind = kind
        self.reason = reason
        self.stderr = stderr
        self.caseIndex = caseIndex
        self.caseSeed = caseSeed
        self.whileShrinking = whileShrinking
    }

    /// The plugin-level driver's error as a failure: ``Kind/didNotStart`` when the plugin
    /// did not start (and `startedBefore` is false: no case has run yet).
    public init(_ error: PluginDriver.DriverError, startedBefore: Bool = false) {
        let kind: Kind = error.code == .notStarted && !startedBefore ? .didNotStart : .misbehaved
        self.init(kind: kind, reason: error.description, stderr: error.stderr)
    }

    /// The failure and where it came, in a line.
    public var description: String {
        var text = reason
        if let caseIndex {
            text += " (in case \(caseIndex + 1)" + (caseSeed.map { ", case seed \($0)" } ?? "") + ")"
        } else if whileShrinking {
            text += " (while shrinking a finding)"
        }
        return text
    }
}
