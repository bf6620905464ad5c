/// The `os/` controls (the host playing the operating system) and the events.
extension OpenRPCDocument {
    static var osControls: [JSONValue] {
        let identifier = params(of: IdentifierParams.self)
        let invalidState = errorRef("InvalidState")
        return [
            method(
                OSLaunch.self, "Launch the task of a pending request (like the debugger's simulate-launch).",
                params: identifier, result: result(OSLaunch.Result.self, "The launched task and when."),
                errors: [invalidState],
                description: "Needs a pending request for the identifier and removes it; ignores earliestBeginDate. "
                    + "-32002 with nothing pending or while a task runs."),
            method(
                OSExpire.self, "Run the running task's expiration handler.", params: identifier, result: nullResult,
                errors: [invalidState], description: "-32002 when that task is not running."),
            method(
                OSAdvanceTime.self, "Move the virtual clock forward, firing due timers and auto-launches on the way.",
                params: params(of: OSAdvanceTime.Params.self), result: result(OSAdvanceTime.Result.self, "{now}"),
                errors: [invalidState],
                description: "Virtual clock only (-32002 under the real clock). Timers fire in deadline order (ties: "
                    + "creation order), each at its own deadline; with autoLaunch on, eligible requests launch. "
                    + "One call performs at most 1000 timer firings and launches (--os ios: 100000 events and the "
                    + "rest of that instant, at most 200000): stopped early, it answers -32002 with data.now, the "
                    + "time it reached; the next call goes on from there."),
            method(
                OSPendingTaskRequests.self, "The pending task requests, sorted by identifier.",
                result: result(TaskRequestList.self, "The requests, sorted by identifier.")),
            method(
                OSSetConditions.self, "Change any of the conditions; answer all of them. Launches nothing.",
                params: params(of: OSSetConditions.IOSParams.self, iosBeyond: OSSetConditions.Params.self),
                result: result(Conditions.self, "The full conditions object.")),
            method(
                OSSubmit.self, "A direct BGTaskScheduler.submit of any request.",
                params: params(of: OSSubmit.Params.self),
                result: result(TaskRequestInfo.self, "The request as accepted."),
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
    static var events: [JSONValue] { contractEvents + iosEvents + appStatesEvents }

    private static var contractEvents: [JSONValue] {
        [
            event(RequestSubmittedEvent.self, "A request was accepted by the scheduler."),
            event(SubmitFailedEvent.self, "A submission failed (logged, never returned)."),
            event(
                RequestCancelledEvent.self, "A pending request was cancelled.",
                describedAs: "The cancelled request's identifier."),
            event(
                TaskLaunchedEvent.self, "The OS launched a task (before the launch handler runs).",
                sends: ["identifier", "kind", "at"]),
            event(
                TaskExpiredEvent.self, "The OS ran a task's expiration handler (before it runs).",
                sends: ["identifier", "at", "cause"], iosMembers: ["cause"],
                describedAs: "The task and when; under --os ios also why (cause)."),
            event(
                TaskCompletedEvent.self, "setTaskCompleted was called for the first time.",
                sends: ["identifier", "success", "at"], describedAs: "The task, its success, and when."),
            event(ViolationEvent.self, "A rule was broken and the offending action ignored."),
            event(SafetyTimerEvent.self, "The safety timer started, fired or was invalidated."),
        ]
    }

    /// A notification method: one by-name param per member of the event's params type,
    /// and the whole object as `x-params-schema`, which the suite validates.
    ///
    /// One params type serves three events (``TaskEventParams``): `sends` names the
    /// members an event writes (each always, but `iosMembers`). `iosMembers` are sent
    /// only under `--os ios` (marked `x-os` in `params`).
    static func event<E: RPCEvent>(
        _: E.Type, _ summary: String, os: OSMode? = nil, sends: [String]? = nil, iosMembers: Set<String> = [],
        describedAs: String? = nil
    ) -> JSONValue where E.Params: Decodable {
        guard case .object(var params) = definition(of: E.Params.self, writing: true) else { return .null }
        if let sends, let all = params["properties"]?.objectValue {
            params["properties"] = .object(
                JSONObject(lastWins: all.filter { sends.contains($0.key) }.map { ($0.key, $0.value) }))
            params["required"] = .array(sends.filter { !iosMembers.contains($0) }.sorted().map { .string($0) })
        }
        if let describedAs { params["description"] = .string(describedAs) }
        let required = Set(params["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let members = (params["properties"]?.objectValue ?? [:]).map { key, schema in
            iosMembers.contains(key)
                ? iosParam(key, schema, "See docs/protocol.md, section 9.")
                : descriptor(key, schema, required: required.contains(key), "See the contract, section 6.")
        }
        var e: JSONObject = [
            "name": .string(E.name), "summary": .string(summary), "paramStructure": "by-name",
            "params": .array(members), "x-notification": true, "x-direction": "plugin-to-host", "x-kind": "event",
            "x-params-schema": .object(params),
            "description": "An event (a notification the plugin sends). A plugin may add members to its params.",
        ]
        if let os { e["x-os"] = .string(os.rawValue) }
        return .object(e)
    }
}
