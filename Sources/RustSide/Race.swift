/// A point where the real Rust side's order depends on thread scheduling: two
/// parties that can reach the plugin (or the clock) in either order.
///
/// Each race has two sides, named in its name (`listener-vs-completion`: the
/// `listener` side and the `completion` side); an order is the side that goes
/// first (`completion-first`). Outside a simulation nothing decides: the order
/// is whatever the threads do. Under ``SystemSimulation`` every race that is
/// actually contested (both sides ready at once) is decided by a ``RacePlan``,
/// recorded, and can be replayed.
///
/// ```swift
/// let order = Race.listenerVsCompletion.order(.second)   // "completion-first"
/// ```
public enum Race: String, Sendable, Hashable, CaseIterable, Comparable {
    /// A run that ends at once: its listener's `waitForCancel` (spawned after `Start`
    /// replied, written by a blocking-pool thread) and its completion callback's
    /// `completeBgTask` (written by the service task) reach the plugin in either order.
    case listenerVsCompletion = "listener-vs-completion"
    /// `Stop` cancels the token and then calls `stopKeepalive`; the cancelled service
    /// can finish on another worker and its `completeBgTask` can get there first. On the
    /// real runtime it did not, in 1,400 of 1,400 trials: `token.cancel()` (manager.rs line
    /// 507) wakes the service into the cancelling worker's LIFO slot, which other workers
    /// cannot steal, and the manager then blocks that worker in `stop_keepalive` (lines
    /// 513-517). Drawn `completion-first` at ``drawFloor`` (``realRuntime``).
    case stopVsCompletion = "stop-vs-completion"
    /// Something due on the plugin's side (its safety timer, the OS's budget) and
    /// something due on the host's (a listener's timeout, a service's work) at the
    /// same instant: two clocks on two sides, either fires first.
    case pluginVsHostDeadline = "plugin-vs-host-deadline"
    /// A run's end is two halves with a window between (run path: the callback, then the
    /// token and state cleared; init failure: cleared, then the callback), and the app's
    /// next command can land in that window: run path, `start` fails "already running"
    /// and `stop` succeeds; init failure, `start` starts a new run before the old run's
    /// `completeBgTask` is written.
    case runEndVsApp = "run-end-vs-app"
    /// Under the plugin's `--dispatch tauri`: a host invoke and an OS event that reach the
    /// plugin at one instant (one JSON-RPC batch) run on its two queues, Tauri's `ipc` and
    /// the main queue; at each interleaving decision one queue runs its next statement of the
    /// seed's. One record per decision, in order (`SystemSimulation+Together.swift`).
    case ipcVsMain = "ipc-vs-main"
    /// Under the plugin's `--dispatch tauri` (and `--os ios`): the safety timer lives on the
    /// main run loop and `cleanup()` invalidates it from `ipc`; Apple's `Timer.invalidate()`
    /// says a timer invalidated from another thread may not be removed from its run loop.
    /// `invalidate-first`: the invalidation removes it (`removed`); `fire-first`: it stays and
    /// fires at its deadline (`notRemoved`). One record per off-thread invalidation
    /// (`SystemSimulation+Invalidations.swift`; issue 22).
    case invalidateVsFire = "invalidate-vs-fire"
    /// A `waitForCancel` closure queued for a blocking-pool thread gets one when an answer frees
    /// it (tokio `blocking/pool.rs` 506-514: the thread that finishes a task pops the next queued
    /// one at once, on the same OS thread), while that answer makes a listener `Stop` the run the
    /// closure listens for: the closure's write and the `Stop` (its cancellation and
    /// `stopKeepalive`) race. `handoff-first`: `waitForCancel` is written first and
    /// `stopKeepalive` rejects it (`stopped`); `stop-first`: it is written after, and the run's
    /// completion decides it. The real runtime took `handoff-first` in 36 of 40 runs ("D3
    /// resolved", issue 27 item 2). Decided only when the plan has a seed or orders for it
    /// (``needsPlan``).
    case handoffVsStop = "handoff-vs-stop"
    /// A listener's timeout and its `waitForCancel`'s answer at the same instant (lib.rs line
    /// 184: `timeout(handle)`): tokio's `Timeout` polls the join handle before the delay, but
    /// whether the pool thread has completed the handle by then is a thread race. Contested
    /// when the answer has reached the host and its thread has not finished the closure when
    /// the timeout fires. `answer-first`: the listener takes the answer (a rejection: nothing
    /// more); `timeout-first`: it times out, calls `cancelCancelListener` and `Stop`. The real
    /// runtime took `answer-first` in 59 of 80 runs ("D3 timed out", listener 2; issue 27
    /// item 3). Decided only when the plan has a seed or orders for it (``needsPlan``).
    case timeoutVsAnswer = "timeout-vs-answer"
    /// After an `initialize` failure the run's end clears the token first and calls the
    /// callback after (manager.rs 416-431); a `start` that lands in between (``runEndVsApp``,
    /// `app-first`) starts a newer run, whose listener's `waitForCancel` and the old run's late
    /// `completeBgTask(false)` race. `listener-first`: the late completion rejects the newer
    /// run's invoke (`completed`), which then runs without a listener; `late-completion-first`:
    /// the invoke stays pending. The real runtime reaches both (issue 27 item 4, with the
    /// completion's write held); how often was not measured. Decided only when the plan has a
    /// seed or orders for it (``needsPlan``).
    case listenerVsLateCompletion = "listener-vs-late-completion"

    /// One of the two parties; `.first` is the one named first.
    public enum Side: Sendable, Hashable {
        /// The side named first in the race's name, and the other.
        case first, second

        /// The other party.
        public var other: Side { self == .first ? .second : .first }
    }

    /// The parties' names, in the order of the race's name.
    public var sides: (first: String, second: String) {
        switch self {
        case .listenerVsCompletion: ("listener", "completion")
        case .stopVsCompletion: ("stop", "completion")
        case .pluginVsHostDeadline: ("plugin", "host")
        case .runEndVsApp: ("run-end", "app")
        case .ipcVsMain: ("ipc", "main")
        case .invalidateVsFire: ("invalidate", "fire")
        case .handoffVsStop: ("handoff", "stop")
        case .timeoutVsAnswer: ("timeout", "answer")
        case .listenerVsLateCompletion: ("listener", "late-completion")
        }
    }

    /// Races added after traces that meet them were committed: a simulation decides them
    /// only when its ``RacePlan`` has a seed (a fuzzer's) or orders for them (a trace that
    /// recorded them); otherwise they are not raced, as before they existed, so that older
    /// traces replay byte for byte.
    public var needsPlan: Bool {
        switch self {
        case .handoffVsStop, .timeoutVsAnswer, .listenerVsLateCompletion: true
        default: false
        }
    }

    /// The order in which `side` goes first, as traces write it (`completion-first`).
    public func order(_ side: Side) -> String {
        (side == .first ? sides.first : sides.second) + "-first"
    }

    /// The side an order names, if it is one of this race's two orders.
    public func side(order: String) -> Side? {
        if order == self.order(.first) { return .first }
        if order == self.order(.second) { return .second }
        return nil
    }

    /// The chance the fuzzer draws the second side first with: the weight it explores
    /// with, not the real runtime's figure (that is ``realRuntime``). Where the real
    /// runtime was measured, its proportion clamped to [``drawFloor``, 1 − ``drawFloor``]
    /// (``drawWeight(_:)``), so both orders stay reachable and replayable: `stop-vs-completion`
    /// draws `completion-first` at the floor, 0.05 (0 of 1,400 real trials, issue 27);
    /// `listener-vs-completion` at its measured 3 in 4 (issue 13). An even chance where
    /// nothing was measured.
    public var secondFirstChance: Double {
        guard let measured = realRuntime else { return 0.5 }
        return Self.drawWeight(measured.secondFirstProportion)
    }

    /// A measured proportion as a draw weight: never below ``drawFloor`` nor above 1 − ``drawFloor``.
    public static func drawWeight(_ proportion: Double) -> Double {
        min(max(proportion, drawFloor), 1 - drawFloor)
    }

    /// Ordered by name, for stable listings.
    public static func < (a: Race, b: Race) -> Bool { a.rawValue < b.rawValue }
}

/// Decides the order at the race points the emulated Rust side passes.
///
/// A side calls ``arrive(_:_:run:)`` just before it acts (writes its request) and
/// ``passed(_:_:run:)`` right after; `arrive` returns when that side may act.
public protocol RaceArbiter: Sendable {
    /// A side of `race` for run `run` is about to act; returns when it may.
    func arrive(_ race: Race, _ side: Race.Side, run: UInt64) async
    /// That side has acted (or, never having needed to wait, is out of the way).
    func passed(_ race: Race, _ side: Race.Side, run: UInt64)
}
