/// How often each order of a ``Race`` was seen on the real Rust runtime (issue 27), kept
/// apart from the chance the fuzzer draws with (``Race/secondFirstChance``).
///
/// The real runtime is tauri-plugin-background-service 0.5.2's Rust side, unmodified, on
/// tokio 1.24's multi-threaded runtime against the plugin binary (`../shared/rusthost/`).
///
/// ```swift
/// Race.stopVsCompletion.realRuntime?.count(.second)   // 0 (of 1,400 trials)
/// ```
public struct RaceMeasurement: Sendable, Hashable {
    /// Trials in which the first-named side went first (`stop-first`); nil when only a proportion was recorded.
    public let firstFirst: Int?
    /// Trials in which the second-named side went first (`completion-first`); nil as above.
    public let secondFirst: Int?
    /// The proportion of second-first, when no counts were recorded.
    public let secondFirstProportion: Double
    /// Where the figure comes from and the mechanism behind it.
    public let source: String

    /// A measurement with counts.
    public init(firstFirst: Int, secondFirst: Int, source: String) {
        self.firstFirst = firstFirst
        self.secondFirst = secondFirst
        let n = firstFirst + secondFirst
        self.secondFirstProportion = n == 0 ? 0.5 : Double(secondFirst) / Double(n)
        self.source = source
    }

    /// A measurement of which only the proportion was written down.
    public init(secondFirstProportion: Double, source: String) {
        self.firstFirst = nil
        self.secondFirst = nil
        self.secondFirstProportion = secondFirstProportion
        self.source = source
    }

    /// All trials, when counted.
    public var trials: Int? { firstFirst.flatMap { a in secondFirst.map { a + $0 } } }

    /// Trials in which `side` went first, when counted.
    public func count(_ side: Race.Side) -> Int? { side == .first ? firstFirst : secondFirst }
}

extension Race {
    /// The lowest chance the fuzzer gives either order of a race: an order the real
    /// runtime never took (`completion-first` of `stop-vs-completion`, 0 of 1,400) is
    /// still drawn at least this often, so it stays explored, and traces record it.
    public static let drawFloor = 0.05

    /// The race's orders as measured on the real Rust runtime; nil where nothing was measured
    /// (`plugin-vs-host-deadline`, `run-end-vs-app`; `listener-vs-late-completion`, whose
    /// orders were both reached but not counted; `ipc-vs-main` and `invalidate-vs-fire` are
    /// the iOS side's, not the Rust runtime's).
    public var realRuntime: RaceMeasurement? {
        switch self {
        case .stopVsCompletion:
            // manager.rs line 507: `token.cancel()` wakes the service task into the same
            // worker's LIFO slot, which other workers cannot steal; the manager then blocks
            // that worker in `stop_keepalive` (lines 513-517), so `stopKeepalive` is written
            // first. 700 trials, and 700 more with the LIFO slot disabled: all stop-first.
            RaceMeasurement(
                firstFirst: 1400, secondFirst: 0,
                source: "issue 27, ../shared/rusthost: token.cancel() (manager.rs line 507) wakes the service into "
                    + "the manager's worker's LIFO slot and the manager blocks that worker in stop_keepalive "
                    + "(lines 513-517); 700 trials, and 700 more with the LIFO slot disabled")
        case .listenerVsCompletion:
            // The listener is spawned after `Start` replies and waits for a blocking-pool
            // thread; the service's `completeBgTask` is usually written first.
            RaceMeasurement(
                secondFirstProportion: 0.75,
                source: "issue 13, 2 vCPUs: the listener's waitForCancel goes out from a blocking-pool thread "
                    + "spawned after Start replies, so a run that ends at once writes completeBgTask first about "
                    + "three times in four (trial count not recorded); issue 27's runs agree: 524 of 700 when the "
                    + "run ends at once, 533 of 700 when initialize fails at once")
        case .handoffVsStop:
            // tokio blocking/pool.rs 506-514: the freed thread runs the queued closure at once,
            // before the listener that the answer woke is polled and sends its Stop.
            RaceMeasurement(
                firstFirst: 36, secondFirst: 4,
                source: "issue 27, ../shared/rusthost (D3 resolved, 40 runs): the thread the answer freed runs the "
                    + "queued waitForCancel closure at once (tokio blocking/pool.rs 506-514), before the woken "
                    + "listener's Stop writes stopKeepalive")
        case .timeoutVsAnswer:
            // lib.rs line 184: Timeout polls the JoinHandle first; whether the pool thread has
            // completed it when the delay fires is a thread race.
            RaceMeasurement(
                firstFirst: 21, secondFirst: 59,
                source: "issue 27, ../shared/rusthost (D3 timed out, current-thread flavor, 80 runs): listener 2's "
                    + "rejection reached it before its own timeout in 59; in 21 it timed out too and sent a second "
                    + "cancelCancelListener (lib.rs 184: timeout polls the handle first, the pool thread races it)")
        case .pluginVsHostDeadline, .runEndVsApp, .ipcVsMain, .invalidateVsFire, .listenerVsLateCompletion:
            nil
        }
    }

    /// How likely `side` going first is on the real runtime, in words:
    /// `stop-vs-completion completion-first: 0 of 1,400 trials on the real runtime`.
    public func realRuntimeStatement(_ side: Side) -> String {
        let head = "\(rawValue) \(order(side)): "
        guard let m = realRuntime else {
            if self == .listenerVsLateCompletion {
                return head + "reached on the real runtime (issue 27), how often not measured"
            }
            if self == .ipcVsMain || self == .invalidateVsFire {
                return head + "not measured (a race of the iOS side, not of the Rust runtime)"
            }
            return head + "not measured on the real runtime"
        }
        if let n = m.count(side), let trials = m.trials {
            return head + "\(Self.grouped(n)) of \(Self.grouped(trials)) trials on the real runtime"
        }
        let p = side == .second ? m.secondFirstProportion : 1 - m.secondFirstProportion
        return head + "about \(Int((p * 100).rounded())) % of trials on the real runtime (count not recorded)"
    }

    /// `1400` → `1,400`.
    package static func grouped(_ n: Int) -> String {
        var digits = Array(String(n))
        var i = digits.count - 3
        while i > 0 {
            digits.insert(",", at: i)
            i -= 3
        }
        return String(digits)
    }
}

extension RaceRecord {
    /// For each race order in `records` (in the order first met, `ipc-vs-main` left out as
    /// it is the plugin's queues, not the Rust runtime), how likely it is on the real runtime.
    public static func realRuntimeStatements(_ records: [RaceRecord]) -> [String] {
        var seen: [String] = []
        for r in records where r.race != .ipcVsMain {
            let s = r.race.realRuntimeStatement(r.first)
            if !seen.contains(s) { seen.append(s) }
        }
        return seen
    }
}
