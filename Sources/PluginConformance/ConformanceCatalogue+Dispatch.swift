import HostProtocol

/// Section 3 under `--dispatch tauri` (contract § 7): the invokes' rules hold whatever
/// the interleaving of the emulated `ipc` and main queues.
extension ConformanceCatalogue {
    /// The checks that race the two queues.
    static let dispatch: [ConformanceCheck] = [
        ConformanceCheck(
            "invoke.answered-once.race", section: 3,
            rule:
                "An invoke is answered at most once, whatever the interleaving: under --dispatch tauri, a batch of "
                + "cancelCancelListener (ipc) and os/expire (main) racing for the pending waitForCancel answers it "
                + "once (resolved by the expiration, or rejected with listenerCancelled) and answers both members. "
                + "The schedule reads the waitForCancel on ipc, lets the expiration resolve it on main, then lets "
                + "cancelCancelListener go on. Needs the plugin/dispatchSchedule extension.",
            flags: ["--events", "--dispatch", "tauri"], requires: [PluginDispatchSchedule.name],
            accepts: ["any interleaving of the race's events; only the answers are judged"]
        ) { _ in
            let schedule = #"{"choices":["ipc","main","main","main","ipc","ipc","ipc"]}"#
            let waitAnswered = Pattern.oneOf(
                [result(2), rejected(2, "listenerCancelled")],
                because: "the pending waitForCancel resolved by the expiration or rejected (listenerCancelled)")
            return [
                .send(
                    startKeepalive(1), request(2, "waitForCancel"), launch(3, .refresh),
                    expect: scheduleNext(refreshAt: "900")
                        + [
                            result(1), launched(.refresh, at: "0"), timer("started", deadline: "28"),
                            launchResult(3, .refresh, at: "0"),
                        ]),
                .send(request(4, PluginDispatchSchedule.name, schedule), expect: [result(4, .any)]),
                .send(
                    "[" + request(5, "cancelCancelListener") + "," + request(6, "os/expire", identifier(.refresh))
                        + "]",
                    including: [waitAnswered, batch([result(5), result(6)])]),
                .send(state(7), expect: [result(7, Pattern(json: #"{"activeTask":null,"pendingCancelInvoke":null}"#))]),
            ]
        }
    ]
}
