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

extension ArmedWait {
    /// The answer, as a listener outcome (cancellation stops waiting).
    func outcome() async -> ServiceManager.ListenerOutcome {
        do {
            return .signal(try await signal())
        } catch {
            return .failed(error)
        }
    }
}
