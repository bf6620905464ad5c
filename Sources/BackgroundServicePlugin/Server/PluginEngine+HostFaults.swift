import HostProtocol

/// The `BSP_FAULT` faults that imitate a broken plugin process, for testing hosts.
extension PluginEngine {
    func installHostFaults() {
        let faults = options.faults
        if faults.contains(.rejectStartKeepalive) {
            handlers[StartKeepalive.name] = { $0.reject(.internalError("injected fault: startKeepalive fails")) }
        }
        if faults.contains(.rejectStopKeepalive) {
            handlers[StopKeepalive.name] = { $0.reject(.internalError("injected fault: stopKeepalive fails")) }
        }
        if faults.contains(.garbageOnState) {
            stateMethodReplaced = true
            handlers[PluginStateMethod.name] = { [unowned self] invoke in
                output.appendRaw(Array("this is not a JSON-RPC frame\n".utf8))
                _ = invoke  // deliberately never answered
            }
        }
        if faults.contains(.exitMidFrameOnState) {
            stateMethodReplaced = true
            handlers[PluginStateMethod.name] = { [unowned self] invoke in
                output.appendRaw(Array(#"{"id":"#.utf8))
                requestedExitStatus = 3
                _ = invoke
            }
        }
    }
}
