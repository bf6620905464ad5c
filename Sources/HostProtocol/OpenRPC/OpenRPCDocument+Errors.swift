/// `components.errors`: the contract's application errors. Each carries the schema
/// of its `data` as `x-data-schema`; -32000 has one entry per `data.reason`.
extension OpenRPCDocument {
    /// When the pending `waitForCancel` is rejected with each reason.
    static let rejectionCauses: [RejectReason: String] = [
        .completed: "completeBgTask rejected the pending waitForCancel",
        .stopped: "stopKeepalive rejected the pending waitForCancel",
        .listenerCancelled: "cancelCancelListener rejected the pending waitForCancel",
        .superseded: "a second waitForCancel replaced this one (--profile strict)",
        .reset: "plugin/reset rejected the pending waitForCancel, or an invoke whose body a blocked main thread held",
        .shutdown: "shutdown rejected the pending waitForCancel",
        .terminated: "--os ios only: the app's process ended with the invoke pending, or the invoke came while the "
            + "app is not running",
    ]

    /// The name of the error entry for a rejection reason (`InvokeRejected.completed`).
    static func rejectionName(_ reason: RejectReason) -> String { "InvokeRejected.\(reason.rawValue)" }

    static var errors: [String: JSONValue] {
        var e: [String: JSONValue] = [
            "SchedulerError": error(
                .schedulerError, data: ["scheduler": "tooManyPendingTaskRequests"], schema: "SchedulerErrorData",
                "A direct emulated BGTaskScheduler call failed; data.scheduler: unavailable, "
                    + "tooManyPendingTaskRequests or notPermitted."),
            "InvalidState": error(
                .invalidState, data: nil, schema: "InvalidStateData",
                "An os/ control that cannot apply now: nothing pending to launch, that task not running, time "
                    + "control under the real clock, a launch while a task runs; or os/advanceTime stopped at its "
                    + "bound before its target, with data.now, the time it reached (the only -32002 with data)."),
        ]
        for reason in RejectReason.allCases {
            e[rejectionName(reason)] = error(
                .invokeRejected, data: ["reason": .string(reason.rawValue)], schema: "InvokeRejectedData",
                "The plugin rejected the invoke (invoke.reject): \(rejectionCauses[reason] ?? reason.rawValue).")
        }
        return e
    }

    private static func error(_ code: ErrorCode, data: JSONValue?, schema: String?, _ description: String) -> JSONValue
    {
        var o: JSONObject = [
            "code": .number(code.rawValue), "message": .string(code.name), "x-description": .string(description),
        ]
        if let data { o["data"] = data }
        if let schema { o["x-data-schema"] = ref(schema) }
        return .object(o)
    }

    /// The error entries (resolved) for a code, across `components.errors`.
    public static func errorEntries(code: Int) -> [JSONValue] {
        (value["components"]?["errors"]?.objectValue?.values ?? []).filter { $0["code"]?.int64Value == Int64(code) }
    }
}
