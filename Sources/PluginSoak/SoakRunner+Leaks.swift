import HostProtocol
import PluginHost

/// The checks at the end of a soak: nothing left pending on either side.
extension SoakRunner {
    /// No pending entries left: the host's table is empty; the plugin has no
    /// pending `waitForCancel` after a reset, and none of a sample of the ids it
    /// answered is still registered as pending (a reused id would get -32600).
    func checkPendingAtEnd(_ connection: PluginConnection, requests: Int, report: inout Report) {
        do {
            _ = try connection.callBlocking(method: PluginReset.name, params: nil, timeout: settings.timeout)
            let state = try connection.callBlocking(
                method: PluginStateMethod.name, params: nil, timeout: settings.timeout)
            report.pluginPendingAtEnd =
                "pendingCancelInvoke \(state["pendingCancelInvoke"]?.description ?? "missing"), cancelInvokePending "
                + "\(state["cancelInvokePending"]?.description ?? "missing")"
            if state["pendingCancelInvoke"] != .null || state["cancelInvokePending"] == .bool(true) {
                report.error =
                    "the plugin still has a pending waitForCancel after a reset: \(report.pluginPendingAtEnd)"
            }
            // Probe: requests reusing ids the connection used (and got answered) earlier.
            let probes = min(1000, requests)
            var bytes: [UInt8] = []
            var probeIDs: [RequestID] = []
            for i in 0..<probes {
                let id = RequestID.int(1 + i * max(1, requests / max(1, probes)))
                probeIDs.append(id)
                MessageWriter.appendRequest(id: id, method: OSPendingTaskRequests.name, params: nil, to: &bytes)
                bytes.append(0x0A)
            }
            shared.withLock {
                $0.probing = true
                $0.probeAnswers = [:]
            }
            try connection.sendRaw(bytes)
            _ = try connection.callBlocking(method: PluginStateMethod.name, params: nil, timeout: settings.timeout)
            let answers = shared.withLock { s in
                s.probing = false
                return s.probeAnswers
            }
            report.probedIDs = probeIDs.count
            report.leakedPluginIDs = probeIDs.filter { answers[$0] != 0 }.count
            if report.leakedPluginIDs > 0 {
                report.error =
                    "\(report.leakedPluginIDs) of \(probeIDs.count) ids answered long ago are still pending in the "
                    + "plugin (-32600 on reuse, or no answer)"
            }
        } catch {
            report.error = "the final checks failed: \(error)"
        }
        report.hostPendingAtEnd = connection.pendingCount
        if report.hostPendingAtEnd != 0 {
            report.error = report.error ?? "the host's pending table still holds \(report.hostPendingAtEnd) calls"
        }
    }
}
