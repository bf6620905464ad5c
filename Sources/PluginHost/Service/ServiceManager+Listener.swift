import HostProtocol
import Synchronization

/// The cancel listener: `waitForCancel` raced against `iosCancelListenerTimeoutSecs`.
/// Resolved: Stop. Timed out: `cancelCancelListener`, then Stop. Rejected: nothing.
extension ServiceManager {
    enum ListenerOutcome: Sendable {
        case signal(CancelSignal)
        case timedOut
        case failed(HostError)

        var text: String {
            switch self {
            case .signal(let s): s.description
            case .timedOut: "timed out"
            case .failed(let e): "failed: \(e)"
            }
        }
    }

    func spawnListener(generation g: UInt64, timeout: Double, armed: ArmedWait?) {
        emit(.listenerArmed(generation: g))
        let client = self.client
        let clock = configuration.clock
        Task(executorPreference: executor) { [self] in
            let outcome = await withTaskGroup(of: ListenerOutcome?.self) { group in
                group.addTask {
                    if let armed { return await armed.outcome() }
                    do throws(HostError) {
                        return .signal(try await client.waitForCancel())
                    } catch {
                        return .failed(error)
                    }
                }
                group.addTask {
                    do {
                        try await clock.sleep(seconds: timeout)
                        return .timedOut
                    } catch {
                        return nil
                    }
                }
                var first: ListenerOutcome?
                while first == nil, let next = await group.next() { first = next }
                group.cancelAll()
                return first ?? .failed(.cancelled)
            }
            await listenerFinished(generation: g, outcome: outcome)
        }
    }

    private func listenerFinished(generation g: UInt64, outcome: ListenerOutcome) async {
        emit(.listenerFinished(generation: g, outcome: outcome.text))
        switch outcome {
        case .signal(.resolved):
            try? await stop(origin: .listenerResolved(generation: g))
        case .timedOut:
            do {
                try await client.cancelCancelListener()
            } catch {
                configuration.log("cancelCancelListener failed: \(error)")
            }
            try? await stop(origin: .listenerTimedOut(generation: g))
        case .signal(.rejected):
            break
        case .failed(let error):
            if error != .cancelled { configuration.log("cancel listener of run \(g) failed: \(error)") }
        }
    }
}

/// A `waitForCancel` written at once, whose answer is awaited later (strict).
final class ArmedWait: Sendable {
    private let state = Mutex<(result: Result<JSONValue, HostError>?, waiter: CheckedContinuation<Result<JSONValue, HostError>, Never>?)>((nil, nil))

    init(client: BackgroundServiceClient) {
        client.connection.start(method: WaitForCancel.name, params: nil) { [self] result in deliver(result) }
    }

    private func deliver(_ result: Result<JSONValue, HostError>) {
        let waiter = state.withLock { s -> CheckedContinuation<Result<JSONValue, HostError>, Never>? in
            if let w = s.waiter {
                s.waiter = nil
                return w
            }
            s.result = result
            return nil
        }
        waiter?.resume(returning: result)
    }

    /// The answer, as a listener outcome (cancellation stops waiting).
    func outcome() async -> ServiceManager.ListenerOutcome {
        let result: Result<JSONValue, HostError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { s -> Result<JSONValue, HostError>? in
                    if let r = s.result { return r }
                    s.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<Result<JSONValue, HostError>, Never>? in
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume(returning: .failure(.cancelled))
        }
        switch result {
        case .success: return .signal(.resolved)
        case .failure(.rejected(let reason, let message)): return .signal(.rejected(reason: reason, message: message))
        case .failure(let e): return .failed(e)
        }
    }
}
