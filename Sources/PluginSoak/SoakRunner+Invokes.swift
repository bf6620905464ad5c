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
            _ = try connection.callBlocking(method: PluginReset.name, params: nil, timeout: .seconds(60))
        } catch {
            throw SoakError("plugin/reset before the invokes failed: \(error)")
        }
        let permits = DispatchSemaphore(value: settings.window)
        let group = DispatchGroup()
        let mismatches = Mutex<(count: Int, first: [String])>((0, []))
        var invokes = 0
        var requests = 0
        // Whole cycles only, so that every waitForCancel is answered within the batch.
        while invokes < count || !script.atCycleStart {
            let step = script.next()
            if step.isInvoke { invokes += 1 }
            requests += 1
            permits.wait()
            group.enter()
            connection.start(method: step.method, params: step.params) { result in
                if !step.expect(result) {
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
        guard group.wait(timeout: .now() + .seconds(120)) == .success else {
            throw SoakError("invokes got no answer within 120 s (host pending \(connection.pendingCount))")
        }
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
}
