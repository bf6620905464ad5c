/// The methods the host calls: the five invokes and the session methods (the `os/`
/// controls are in `OpenRPCDocument+OSControls.swift`).
extension OpenRPCDocument {
    static var methods: [JSONValue] { invokes + osControls + sessionMethods + iosControls + appStatesControls }

    /// -32000 `terminated`: under `--os ios` any invoke the app's process held, or sent while it does not run.
    private static var terminated: JSONValue { errorRef(rejectionName(.terminated)) }

    private static var invokes: [JSONValue] {
        return [
            method(
                StartKeepalive.self, "Store the given config fields, then submit the refresh and processing requests.",
                params: params(of: StartKeepalive.Params.self), result: nullResult, errors: [terminated],
                description: "config-persists: each field given with the right type replaces the stored value; absent "
                    + "fields keep theirs. A field of the wrong type is ignored under --profile seed and -32602 under "
                    + "strict. schedule-next: refresh at now + refresh minutes, then processing; a failed submission "
                    + "is an os/submitFailed event, never an error."),
            method(
                WaitForCancel.self, "Become the pending cancel invoke; answered later.",
                result: descriptor("result", ["type": "null"], "Resolved by an expiration or the safety timer."),
                errors: RejectReason.allCases.map { errorRef(rejectionName($0)) },
                description: "Not answered now. Resolved with null by an expiration or a safety timer; rejected with "
                    + "-32000 and data.reason otherwise. A second one replaces it: dropped unanswered under seed, "
                    + "rejected (superseded) under strict. Sent as a notification it is ignored."),
            method(
                CompleteBgTask.self, "Complete the active task; reject the pending cancel invoke (completed).",
                params: params(of: CompleteBgTask.Params.self),
                result: nullResult, errors: [terminated],
                description: "Order: complete the active task with success; reject the pending waitForCancel; if a "
                    + "task had been active, schedule-next; invalidate the safety timer; resolve."),
            method(
                StopKeepalive.self,
                "Cancel both requests, reject the pending cancel invoke (stopped), complete an "
                    + "active task with false.", result: nullResult, errors: [terminated],
                description: "Never reschedules."),
            method(
                CancelCancelListener.self, "Reject the pending cancel invoke, if any (listenerCancelled).",
                result: nullResult, errors: [terminated]),
        ]
    }

    private static var sessionMethods: [JSONValue] {
        [
            method(
                Initialize.self, "Open the session; capabilities.events: true turns events on.",
                params: params(of: Initialize.Params.self),
                result: result(Initialize.Result.self, "What the plugin says about itself.")),
            method(
                Shutdown.self, "Reject a pending waitForCancel (shutdown), resolve, then exit 0.", result: nullResult),
            method(
                PluginStateMethod.self, "A snapshot of the plugin and the emulated OS.",
                result: result(PluginStateSnapshot.self, "The snapshot; a plugin may add members.")),
            method(
                PluginReset.self, "Plugin and emulated OS back to their freshly started state, same flags.",
                result: nullResult,
                description: "A pending waitForCancel is first rejected (reset). State, config, scheduler, conditions "
                    + "and the clock (0) are reset; the session (whether events are on) is kept."),
            method(
                PluginDispatchSchedule.self, "Report the interleaving decisions made, install the next ones.",
                params: params(of: PluginDispatchSchedule.Params.self),
                result: result(
                    PluginDispatchSchedule.Result.self,
                    "The decisions since the previous call (or the start, or plugin/reset)."),
                isExtension: true,
                description: "Under --dispatch tauri, whenever both emulated queues have a step ready the plugin "
                    + "takes the next installed choice, then draws from a PRNG seeded with --dispatch-seed. Under "
                    + "--dispatch serial no decision is ever made."),
            method(
                RPCDiscover.self, "This document (the OpenRPC service discovery method).",
                result: result(DiscoveredDocument.self, "The plugin's OpenRPC document."),
                isExtension: true),
        ]
    }
}
