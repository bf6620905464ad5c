/// The `os/` controls (the host playing the operating system) and the events.
extension OpenRPCDocument {
    static var osControls: [JSONValue] {
        let identifier = descriptor(
            "identifier", ["type": "string"], required: true, "A task identifier (-32602 when never registered).")
        let invalidState = errorRef("InvalidState")
        return [
            method(
                OSLaunch.self, "Launch the task of a pending request (like the debugger's simulate-launch).",
                params: [identifier],
                result: descriptor(
                    "result",
                    object(
                        ["identifier": ["type": "string"], "kind": ref("TaskKind"), "at": ref("Instant")],
                        required: ["identifier", "kind", "at"], "The launched task."),
                    "The launched task and when."),
                errors: [invalidState],
                description: "Needs a pending request for the identifier and removes it; ignores earliestBeginDate. "
                    + "-32002 with nothing pending or while a task runs."),
            method(
                OSExpire.self, "Run the running task's expiration handler.", params: [identifier], result: nullResult,
                errors: [invalidState], description: "-32002 when that task is not running."),
            method(
                OSAdvanceTime.self, "Move the virtual clock forward, firing due timers and auto-launches on the way.",
                params: [descriptor("seconds", ["type": "number", "minimum": 0], required: true, "How far, >= 0.")],
                result: descriptor(
                    "result", object(["now": ref("Instant")], required: ["now"], "The clock after."), "{now}"),
                errors: [invalidState],
                description: "Virtual clock only (-32002 under the real clock). Timers fire in deadline order (ties: "
                    + "creation order), each at its own deadline; with autoLaunch on, eligible requests launch. "
                    + "One call performs at most 1000 timer firings and launches (--os ios: 100000 events and the "
                    + "rest of that instant, at most 200000): stopped early, it answers -32002 with data.now, the "
                    + "time it reached; the next call goes on from there."),
            method(
                OSPendingTaskRequests.self, "The pending task requests, sorted by identifier.",
                result: descriptor(
                    "result", ["type": "array", "items": ref("TaskRequest")], "The requests, sorted by identifier.")),
            method(
                OSSetConditions.self, "Change any of the conditions; answer all of them. Launches nothing.",
                params: [
                    descriptor("backgroundRefreshStatus", ref("BackgroundRefreshStatus"), "The refresh setting."),
                    descriptor("externalPower", ["type": "boolean"], "On external power."),
                    descriptor("networkConnected", ["type": "boolean"], "Network connected."),
                    descriptor("autoLaunch", ["type": "boolean"], "Launch eligible requests as time advances."),
                    iosParam("batteryLevel", ["type": "number", "minimum": 0, "maximum": 1], "The battery, 0 to 1."),
                    iosParam("lowPowerMode", ["type": "boolean"], "Low Power Mode."),
                    iosParam("deviceInUse", ["type": "boolean"], "The user is using the device."),
                ],
                result: descriptor("result", ref("Conditions"), "The full conditions object.")),
            method(
                OSSubmit.self, "A direct BGTaskScheduler.submit of any request.",
                params: [
                    identifier,
                    descriptor("kind", ref("TaskKind"), required: true, "The request's kind."),
                    descriptor(
                        "earliestBeginDate", ["type": ["number", "null"]], "Absolute time on the clock, or null."),
                    descriptor("requiresExternalPower", ["type": "boolean"], "Processing only."),
                    descriptor("requiresNetworkConnectivity", ["type": "boolean"], "Processing only."),
                ],
                result: descriptor("result", ref("TaskRequest"), "The request as accepted."),
                errors: [errorRef("SchedulerError")], isExtension: true,
                description: "Failures are -32001 with data.scheduler (the contract reserves -32001 for a direct "
                    + "scheduler call)."),
        ]
    }

    /// A param that exists only under `--os ios` (`x-os`; under `--os manual` it is an
    /// unknown member, ignored).
    static func iosParam(_ name: String, _ schema: JSONValue, _ description: String) -> JSONValue {
        guard case .object(var d) = descriptor(name, schema, description + " --os ios only.") else { return .null }
        d["x-os"] = .string(OSMode.ios.rawValue)
        return .object(d)
    }

    /// The events, as notification methods from the plugin to the host.
    static var events: [JSONValue] {
        let identifier: JSONValue = ["type": "string"]
        return contractEvents(identifier) + iosEvents + appStatesEvents
    }

    private static func contractEvents(_ identifier: JSONValue) -> [JSONValue] {
        [
            event(RequestSubmittedEvent.name, "A request was accepted by the scheduler.", taskRequest),
            event(
                SubmitFailedEvent.name, "A submission failed (logged, never returned).",
                object(
                    ["identifier": identifier, "error": ref("SchedulerErrorKind")], required: ["identifier", "error"],
                    "The request's identifier and the scheduler error.")),
            event(
                RequestCancelledEvent.name, "A pending request was cancelled.",
                object(["identifier": identifier], required: ["identifier"], "The cancelled request's identifier.")),
            event(
                TaskLaunchedEvent.name, "The OS launched a task (before the launch handler runs).",
                object(
                    ["identifier": identifier, "kind": ref("TaskKind"), "at": ref("Instant")],
                    required: ["identifier", "kind", "at"], "The task and when.")),
            event(
                TaskExpiredEvent.name, "The OS ran a task's expiration handler (before it runs).",
                object(
                    ["identifier": identifier, "at": ref("Instant"), "cause": ref("ExpirationCause")],
                    required: ["identifier", "at"], "The task and when; under --os ios also why (cause)."),
                iosMembers: ["cause"]),
            event(
                TaskCompletedEvent.name, "setTaskCompleted was called for the first time.",
                object(
                    ["identifier": identifier, "success": ["type": "boolean"], "at": ref("Instant")],
                    required: ["identifier", "success", "at"], "The task, its success, and when.")),
            event(
                ViolationEvent.name, "A rule was broken and the offending action ignored.",
                object(
                    ["rule": ["type": "string"], "detail": ["type": "string"]], required: ["rule", "detail"],
                    "The rule's name (exactly-once, invoke.answered-once) and what happened.")),
            event(
                SafetyTimerEvent.name, "The safety timer started, fired or was invalidated.",
                object(
                    ["state": enumSchema(SafetyTimerEvent.State.self, "The transition."), "deadline": ref("Time")],
                    required: ["state", "deadline"], "The transition and the timer's deadline.")),
        ]
    }

    /// A notification method: one by-name param per member of `params` (an object
    /// schema), and the whole object as `x-params-schema`, which the suite validates.
    /// `iosMembers` are sent only under `--os ios` (marked `x-os` in `params`).
    static func event(
        _ name: String, _ summary: String, _ params: JSONValue, os: OSMode? = nil, iosMembers: Set<String> = []
    ) -> JSONValue {
        let required = Set(params["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let members = (params["properties"]?.objectValue ?? [:]).map { key, schema in
            iosMembers.contains(key)
                ? iosParam(key, schema, "See docs/protocol.md, section 9.")
                : descriptor(key, schema, required: required.contains(key), "See the contract, section 6.")
        }
        var e: JSONObject = [
            "name": .string(name), "summary": .string(summary), "paramStructure": "by-name",
            "params": .array(members), "x-notification": true, "x-direction": "plugin-to-host", "x-kind": "event",
            "x-params-schema": params,
            "description": "An event (a notification the plugin sends). A plugin may add members to its params.",
        ]
        if let os { e["x-os"] = .string(os.rawValue) }
        return .object(e)
    }
}
