import Dispatch
import HostProtocol
import PluginHost
import Synchronization

/// The scripted invokes of each round.
extension SoakRunner {
    /// Sends `count` invokes of the script (and the `os/` calls between them),
    /// at most `window` in flight; every answer is checked against the script.
    func runInvokes(_ count: Int, script: inout InvokeScript, on connection: PluginConnection, report: inout Report)
        throws -> (Int, Int)
    {
        guard count > 0 else { return (0, 0) }
        // The script starts from a fresh plugin (the fuzz cases leave it anywhere).
        do {
            _ = try connection.callBlocking(method: PluginReset.name, params: nil, timeout: settings.timeout)
        } catch {
            throw SoakError("plugin/reset before the invokes failed: \(error)", cause: error)
        }
        let permits = DispatchSemaphore(value: settings.window)
        let group = DispatchGroup()
        let mismatches = Mutex<(count: Int, first: [String])>((0, []))
        // A call failed by the transport (not answered): the first one ends the round.
        let transport = Mutex<HostError?>(nil)
        var invokes = 0
        var requests = 0
        // Whole cycles only, so that every waitForCancel is answered within the batch.
        while invokes < count || !script.atCycleStart {
            let step = script.next()
            if step.isInvoke { invokes += 1 }
            requests += 1
            if permits.wait(timeout: .now() + settings.timeout.dispatchInterval) == .timedOut {
                throw noAnswer(connection)
            }
            if let failure = transport.withLock({ $0 }) {
                // The permit goes back: a semaphore released below its start value traps.
                permits.signal()
                throw SoakError("an invoke failed: \(failure)", cause: failure)
            }
            group.enter()
            connection.start(method: step.method, params: step.params) { result in
                if case .failure(let error) = result, Self.isTransport(error) {
                    transport.withLock { $0 = $0 ?? error }
                } else if !step.expect(result) {
                    mismatches.withLock { m in
                        m.count += 1
                        if m.first.count < 5 {
                            m.first.append("\(step.method): expected \(step.expectation), got \(result)")
                        }
                    }
                }
                permits.signal()
                group.leave()
            }
        }
        guard group.wait(timeout: .now() + settings.timeout.dispatchInterval) == .success else {
            throw noAnswer(connection)
        }
        if let failure = transport.withLock({ $0 }) { throw SoakError("an invoke failed: \(failure)", cause: failure) }
        let m = mismatches.withLock { $0 }
        report.invokeMismatches += m.count
        report.firstMismatches += m.first.prefix(5 - min(5, report.firstMismatches.count))
        if let failure = connection.pendingCount > 0
            ? "host still has \(connection.pendingCount) pending calls after a round" : nil
        {
            throw SoakError(failure)
        }
        return (invokes, requests)
    }

    /// No invoke in flight was answered within the timeout: the plugin is stopped.
    private func noAnswer(_ connection: PluginConnection) -> SoakError {
        let methods = Set(connection.pendingMethods).sorted().joined(separator: ", ")
        let error = HostError.timedOut(
            method: "the invokes in flight (\(connection.pendingCount) pending: \(methods))",
            seconds: settings.timeout.seconds)
        connection.transport.terminate()
        return SoakError(error.description, cause: error)
    }
}
