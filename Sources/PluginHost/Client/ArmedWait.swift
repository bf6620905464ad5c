import HostProtocol
import Synchronization

/// A `waitForCancel` written at once, whose answer is awaited later.
///
/// `waitForCancel()` in an `async let` or a new `Task` is written when that task
/// first runs, which may be after requests sent later by the caller; an
/// `ArmedWait` is written before its initializer returns, so the plugin sees it
/// first.
///
/// ```swift
/// let wait = client.armWaitForCancel(timeout: .seconds(30))
/// try await client.os.expire(identifier)   // the wait is already pending
/// let signal = try await wait.signal()      // .resolved
/// ```
public final class ArmedWait: Sendable {
    private typealias Waiter = CheckedContinuation<Result<JSONValue, HostError>, Never>
    private struct State {
        var result: Result<JSONValue, HostError>?
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }
    private let state = Mutex(State())

    init(client: BackgroundServiceClient, timeout: Duration? = nil) {
        if client.lifetime?.isEnded == true {
            state.withLock { $0.result = .failure(ProcessLifetime.terminated) }
            return
        }
        client.connection.start(method: WaitForCancel.name, params: nil, timeout: timeout) { [self] result in
            deliver(result)
        }
    }

    private func deliver(_ result: Result<JSONValue, HostError>) {
        let waiters = state.withLock { s -> [Waiter] in
            s.result = result
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        for w in waiters { w.resume(returning: result) }
    }

    /// The answer, as `BackgroundServiceClient/waitForCancel(timeout:)` returns it:
    /// a rejection is an outcome, a dead plugin or a timeout an error, and a cancelled
    /// task stops waiting with `HostError.cancelled` (the request stays pending, and
    /// `signal()` may be awaited again). Any number of tasks may await it, at once or
    /// one after another: each gets the same answer.
    public func signal() async throws(HostError) -> CancelSignal {
        switch await result() {
        case .success: return .resolved
        case .failure(let e): if let signal = CancelSignal(e) { return signal } else { throw e }
        }
    }

    private func result() async -> Result<JSONValue, HostError> {
        let key = state.withLock { s -> Int in
            defer { s.nextWaiter += 1 }
            return s.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { s -> Result<JSONValue, HostError>? in
                    if let r = s.result { return r }
                    // Cancelled before the waiter was installed: onCancel found none.
                    if Task.isCancelled { return .failure(.cancelled) }
                    s.waiters[key] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { s in s.waiters.removeValue(forKey: key) }
            waiter?.resume(returning: .failure(.cancelled))
        }
    }
}

extension BackgroundServiceClient {
    /// Writes `waitForCancel` now and returns a handle whose ``ArmedWait/signal()``
    /// awaits the answer: unlike `waitForCancel()` started in a child task, the wait
    /// is ordered before every request this caller sends afterwards.
    public func armWaitForCancel(timeout: Duration? = nil) -> ArmedWait {
        ArmedWait(client: self, timeout: timeout)
    }
}
