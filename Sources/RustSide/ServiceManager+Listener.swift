import HostProtocol
import PluginHost
import Synchronization

/// The cancel listener (`lib.rs`): a task that runs `waitForCancel` with
/// `spawn_blocking` and awaits the join handle under `tokio::time::timeout`.
/// Resolved: `Stop`. Timed out: `cancelCancelListener`, then `Stop`; only the
/// handle is dropped, the thread stays blocked until the plugin answers its
/// invoke. Rejected: nothing.
extension ServiceManager {
    /// A `spawn_blocking(waitForCancel)` closure: its join handle, and whether its
    /// listener gave up on it.
    final class WaitJob: Sendable {
        private struct State {
            var request: RequestID?
            var answer: OneShot<Result<JSONValue, HostError>>?
            var result: Result<JSONValue, HostError>?
            var abandoned = false
            var racingTimeout = false
        }
        private let state = Mutex(State())
        let joined = OneShot<Result<JSONValue, HostError>>()

        var request: RequestID? { state.withLock { $0.request } }

        /// The invoke written, with the answer its thread waits for.
        func written(_ pending: TauriBridge.Pending) {
            state.withLock { s in
                s.request = pending.request
                s.answer = pending.answer
            }
        }

        /// At the listener's timeout: true (and the race marked) when the answer has reached the
        /// host but the thread has not finished the closure yet (``Race/timeoutVsAnswer``).
        func answerInFlight() -> Bool {
            state.withLock { s in
                guard s.result == nil, s.answer?.current != nil else { return false }
                s.racingTimeout = true
                return true
            }
        }

        /// Whether the listener's timeout waits for this closure's answer at the race's gate.
        var racingTimeout: Bool { state.withLock { $0.racingTimeout } }

        /// The closure returned; true when its listener had given up on it.
        func finish(_ result: Result<JSONValue, HostError>) -> Bool {
            let abandoned = state.withLock { s in
                s.result = result
                return s.abandoned
            }
            joined.fill(result)
            return abandoned
        }

        /// The listener drops the handle: nil, or the result if it had already come
        /// (`timeout` polls the handle before the delay).
        func abandon() -> Result<JSONValue, HostError>? {
            state.withLock { s in
                if let r = s.result { return r }
                s.abandoned = true
                return nil
            }
        }
    }

    enum ListenerOutcome: Sendable {
        case answered(Result<JSONValue, HostError>)
        case timedOut(seconds: UInt64, request: RequestID?)

        var text: String {
            switch self {
            case .answered(let r): ServiceManager.describe(r)
            case .timedOut(let s, let id?):
                "timed out after \(s) s; its blocking thread stays blocked on waitForCancel #\(id)"
            case .timedOut(let s, nil): "timed out after \(s) s; its waitForCancel still waits for a blocking thread"
            }
        }
    }

    static func describe(_ result: Result<JSONValue, HostError>) -> String {
        switch result {
        case .success: return "resolved"
        case .failure(let e) where e.code == .rejected:
            return "rejected (\(e.rejectReason?.rawValue ?? e.rpcMessage ?? ""))"
        case .failure(let e): return "failed: \(e)"
        }
    }

    /// The listener task, spawned with `job` already armed (strict) or spawning its own.
    func spawnListener(generation g: UInt64, timeoutSeconds: UInt64, job armed: WaitJob?) {
        emit(.listenerArmed(generation: g))
        listening.withLock { $0.append(g) }
        let clock = configuration.clock
        Task(executorPreference: executor) { [self] in
            let job = armed ?? spawnWaitForCancel(generation: g)
            let outcome = await Self.wait(
                for: job, timeoutSeconds: timeoutSeconds, clock: clock, races: configuration.races, run: g)
            listening.withLock { $0.removeAll { $0 == g } }
            await listenerFinished(generation: g, outcome: outcome)
        }
    }

    /// `spawn_blocking`: the closure gets a pool thread (queued until one frees, for
    /// as long as it takes), writes `waitForCancel` at its turn in the race with the
    /// run's completion, and blocks until the plugin answers.
    nonisolated func spawnWaitForCancel(generation g: UInt64) -> WaitJob {
        let job = WaitJob()
        let races = configuration.races
        Task(executorPreference: executor) { [self] in
            let thread = await pool.acquire(run: g) {
                configuration.onEvent(.listenerQueued(generation: g, busy: pool.busyCount))
            }
            // Handed a freed thread: it runs at once, racing the Stop that answer may cause.
            let handedOff = handedOff.withLock { $0.contains(g) }
            if handedOff { await races?.arrive(.handoffVsStop, .first, run: g) }
            let late = lateInitFailures.withLock { $0.contains { $0 < g } }
            if late { await races?.arrive(.listenerVsLateCompletion, .first, run: g) }
            await races?.arrive(.listenerVsCompletion, .first, run: g)
            let pending = bridge.send(WaitForCancel.name, params: nil, run: g, poolThread: thread)
            job.written(pending)
            self.handedOff.withLock { _ = $0.remove(g) }
            races?.passed(.listenerVsCompletion, .first, run: g)
            if late { races?.passed(.listenerVsLateCompletion, .first, run: g) }
            if handedOff { races?.passed(.handoffVsStop, .first, run: g) }
            await blockUntilAnswered(job, generation: g, thread: thread, pending: pending)
        }
        return job
    }

    /// Strict: the thread is taken and `waitForCancel` written inside `Start`, before
    /// the service task exists, so nothing can complete the run before it is pending.
    func armWaitForCancel(generation g: UInt64) async -> WaitJob {
        let job = WaitJob()
        let (onEvent, pool) = (configuration.onEvent, self.pool)
        let thread = await pool.acquire(run: g) { onEvent(.listenerQueued(generation: g, busy: pool.busyCount)) }
        let pending = bridge.send(WaitForCancel.name, params: nil, run: g, poolThread: thread)
        job.written(pending)
        handedOff.withLock { _ = $0.remove(g) }
        configuration.races?.passed(.listenerVsCompletion, .first, run: g)
        Task(executorPreference: executor) { [self] in
            await blockUntilAnswered(job, generation: g, thread: thread, pending: pending)
        }
        return job
    }

    private nonisolated func blockUntilAnswered(
        _ job: WaitJob, generation g: UInt64, thread: Int, pending: TauriBridge.Pending
    ) async {
        let result = await pending.answer.value()
        let racing = job.racingTimeout
        if racing { await configuration.races?.arrive(.timeoutVsAnswer, .second, run: g) }
        if let next = pool.release(thread) { handedOff.withLock { _ = $0.insert(next) } }
        if job.finish(result) {
            configuration.onEvent(.abandonedWaitAnswered(generation: g, outcome: Self.describe(result)))
        }
        if racing { configuration.races?.passed(.timeoutVsAnswer, .second, run: g) }
    }

    /// `tokio::time::timeout(timeout, handle)`: the answer, or the timeout (whole seconds).
    private static func wait(
        for job: WaitJob, timeoutSeconds: UInt64, clock: any HostClock, races: (any RaceArbiter)?, run g: UInt64
    ) async -> ListenerOutcome {
        let first = await withTaskGroup(of: ListenerOutcome?.self) { group in
            group.addTask { await job.joined.valueUnlessCancelled().map { .answered($0) } }
            group.addTask {
                do {
                    try await clock.sleep(seconds: Double(timeoutSeconds))
                    return .timedOut(seconds: timeoutSeconds, request: nil)
                } catch {
                    return nil
                }
            }
            var first: ListenerOutcome?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first
        }
        guard case .timedOut? = first else { return first ?? .answered(.failure(.cancelled)) }
        // The answer came at this instant but its thread has not completed the handle: a race.
        let racing = races != nil && job.answerInFlight()
        if racing { await races?.arrive(.timeoutVsAnswer, .first, run: g) }
        defer { if racing { races?.passed(.timeoutVsAnswer, .first, run: g) } }
        if let result = job.abandon() { return .answered(result) }
        return .timedOut(seconds: timeoutSeconds, request: job.request)
    }

    private func listenerFinished(generation g: UInt64, outcome: ListenerOutcome) async {
        emit(.listenerFinished(generation: g, outcome: outcome.text))
        switch outcome {
        case .answered(.success):
            try? await stop(origin: .listenerResolved(generation: g))
        case .timedOut:
            // "Unblock the thread first": cancelCancelListener, a blocking call on this
            // task's worker, rejects whichever waitForCancel the plugin holds now (its
            // result is ignored), then Stop.
            _ = await bridge.call(CancelCancelListener.name, params: nil, run: g)
            try? await stop(origin: .listenerTimedOut(generation: g))
        case .answered(.failure):
            break
        }
    }
}
