import HostProtocol
import Synchronization

/// Requests written and not yet answered, keyed by id.
///
/// A request is registered before it is written; the thread that reads the answer completes it;
/// when the plugin's output ends every entry fails at once with the same error,
/// and later registrations fail immediately.
final class PendingTable: Sendable {
    typealias Completion = @Sendable (Result<JSONValue, HostError>) -> Void

    private struct Entry {
        let method: String
        let complete: Completion
    }

    /// Whether calls can still be registered.
    private enum Phase {
        /// Calls are registered, completed and given up on.
        case open
        /// The plugin's output ended (or the connection failed): every waiting call failed
        /// with this error, and every later registration fails with it at once.
        case failed(HostError)
    }

    private struct State {
        var phase = Phase.open
        var entries: [RequestID: Entry] = [:]
        /// Ids given up on (timed out, cancelled): a late answer is not an error.
        var abandoned: Set<RequestID> = []

        var failure: HostError? {
            if case .failed(let error) = phase { return error }
            return nil
        }
    }

    private let state = Mutex(State())

    /// Registers a call; returns the error at once when the table has failed.
    func register(_ id: RequestID, method: String, complete: @escaping Completion) -> HostError? {
        state.withLock { s in
            if let failure = s.failure { return failure }
            s.entries[id] = Entry(method: method, complete: complete)
            return nil
        }
    }

    /// Completes the call with this id. Returns false when no call was waiting for it
    /// (and it was not one given up on).
    func complete(_ id: RequestID, with result: Result<JSONValue, HostError>) -> Bool {
        let entry: Entry? = state.withLock { s in
            if let e = s.entries.removeValue(forKey: id) { return e }
            return nil
        }
        guard let entry else {
            return state.withLock { $0.abandoned.remove(id) != nil }
        }
        entry.complete(result)
        return true
    }

    /// Gives up on a call (timeout, cancellation): completes it with `error` if still waiting.
    func abandon(_ id: RequestID, with error: HostError) {
        let entry: Entry? = state.withLock { s in
            guard let e = s.entries.removeValue(forKey: id) else { return nil }
            s.abandoned.insert(id)
            if s.abandoned.count > 10_000 { s.abandoned.removeAll() }
            return e
        }
        entry?.complete(.failure(error))
    }

    /// Fails every waiting call and every later registration with `error` (first error wins).
    func failAll(_ error: HostError) {
        let entries: [Entry] = state.withLock { s in
            if case .open = s.phase { s.phase = .failed(error) }
            defer { s.entries.removeAll() }
            return Array(s.entries.values)
        }
        for e in entries { e.complete(.failure(state.withLock { $0.failure } ?? error)) }
    }

    /// Gives up on every waiting call at once: each completes with `error` (their late
    /// answers are not errors); unlike ``failAll(_:)`` the table lives on.
    func abandonAll(_ error: HostError) {
        let entries: [Entry] = state.withLock { s in
            s.abandoned.formUnion(s.entries.keys)
            defer { s.entries.removeAll() }
            return Array(s.entries.values)
        }
        for e in entries { e.complete(.failure(error)) }
    }

    /// Forgets the ids given up on (before ids are used again from 1).
    func forgetAbandoned() { state.withLock { $0.abandoned.removeAll() } }

    /// The error the table failed with, if it has.
    var failure: HostError? { state.withLock { $0.failure } }

    /// Methods of the calls still waiting, sorted (for diagnostics and leak checks).
    var pendingMethods: [String] { state.withLock { $0.entries.values.map(\.method).sorted() } }

    /// The calls still waiting: id and method, by id.
    var pendingCalls: [(id: RequestID, method: String)] {
        state.withLock { $0.entries.map { ($0.key, $0.value.method) } }.sorted { $0.id.description < $1.id.description }
    }

    /// How many calls are waiting.
    var count: Int { state.withLock { $0.entries.count } }
}
