import Synchronization

/// A value delivered once, awaited by any number of tasks: the answer a blocked
/// bridge call waits for, or a `spawn_blocking` job's join handle.
///
/// ```swift
/// let answer = OneShot<Int>()
/// Task { answer.fill(42) }
/// let v = await answer.value()                  // 42; cannot be cancelled
/// let w = await answer.valueUnlessCancelled()   // nil if the task is cancelled first
/// ```
public final class OneShot<Value: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Value?, Never>
    private struct State {
        var value: Value?
        var waiters: [Int: Waiter] = [:]
        var next = 0
    }
    private let state = Mutex(State())

    /// Empty.
    public init() {}

    /// Delivers the value (the first one wins); false when it was already filled.
    @discardableResult
    public func fill(_ value: Value) -> Bool {
        let waiters: [Waiter]? = state.withLock { s in
            guard s.value == nil else { return nil }
            s.value = value
            defer { s.waiters.removeAll() }
            // In the order they came (a dictionary's order is a per-process hash seed's).
            return s.waiters.sorted { $0.key < $1.key }.map(\.value)
        }
        guard let waiters else { return false }
        for w in waiters { w.resume(returning: value) }
        return true
    }

    /// The value, if it has come.
    public var current: Value? { state.withLock { $0.value } }

    /// Waits for the value; cancellation does not end the wait (a blocked thread).
    public func value() async -> Value {
        let key = register()
        return await withCheckedContinuation { (c: Waiter) in install(c, key: key, cancelled: false) }!
    }

    /// Waits for the value; nil when the task is cancelled first (a dropped handle).
    public func valueUnlessCancelled() async -> Value? {
        let key = register()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (c: Waiter) in install(c, key: key, cancelled: Task.isCancelled) }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: key) }?.resume(returning: nil)
        }
    }

    private func register() -> Int {
        state.withLock { s in
            defer { s.next += 1 }
            return s.next
        }
    }

    private func install(_ c: Waiter, key: Int, cancelled: Bool) {
        let ready: Value?? = state.withLock { s in
            if let v = s.value { return .some(v) }
            // Cancelled before the waiter was installed: onCancel found none.
            if cancelled { return .some(nil) }
            s.waiters[key] = c
            return nil
        }
        if let ready { c.resume(returning: ready) }
    }
}
