import HostProtocol

/// Section 3, continued: `stopKeepalive` and `cancelCancelListener`.
extension ConformanceCatalogue {
    /// The checks of section 3 for `stopKeepalive` and `cancelCancelListener`.
    static let invokesStopping: [ConformanceCheck] = [
        ConformanceCheck(
            "invoke.stopKeepalive.order", section: 3,
            rule:
                "stopKeepalive: cancel both pending requests; reject the pending cancel invoke (stopped); complete an "
                + "active task with false; clean up; resolve.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), request(2, "waitForCancel"), launch(3, .refresh),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), launched(.refresh, at: "0"), timer("started", deadline: "28"),
                        launchResult(3, .refresh, at: "0"),
                    ]),
                .send(
                    request(4, "stopKeepalive"),
                    expect: [
                        cancelled(.processing), rejected(2, "stopped"), completed(.refresh, success: false, at: "0"),
                        timer("invalidated", deadline: "28"), result(4),
                    ]),
            ]
        },
        ConformanceCheck(
            "invoke.stopKeepalive.never-reschedules", section: 3,
            rule: "stopKeepalive never reschedules: after it nothing is pending and nothing launches."
        ) { p in
            [
                .send(
                    startKeepalive(1), launch(2, .refresh), request(3, "stopKeepalive"),
                    request(4, "os/pendingTaskRequests"),
                    expect: [result(1), launchResult(2, .refresh, at: "0"), result(3), pending(4, [])]),
                .send(
                    request(5, "os/setConditions", #"{"autoLaunch":true}"#), advance(6, "3600"), state(7),
                    expect: [
                        result(5, conditions(autoLaunch: true)), now(6, "3600"),
                        ConformanceState.with(p) {
                            $0.now = "3600"
                            $0.conditions = conditions(autoLaunch: true)
                            $0.launched = 1
                            $0.completed = 1
                        }.reply(7),
                    ]),
            ]
        },
        ConformanceCheck(
            "invoke.stopKeepalive.rejects-without-task", section: 3,
            rule: "stopKeepalive rejects the pending cancel invoke with reason stopped even when no task is active."
        ) { _ in
            [
                .send(request(1, "waitForCancel"), expect: []),
                .send(request(2, "stopKeepalive"), expect: [rejected(1, "stopped"), result(2)]),
            ]
        },
        ConformanceCheck(
            "invoke.stopKeepalive.cancels-requests", section: 3,
            rule: "stopKeepalive cancels both pending task requests.", flags: ["--events"]
        ) { _ in
            [
                .send(startKeepalive(1), expect: scheduleNext(refreshAt: "900") + [result(1)]),
                .send(
                    request(2, "stopKeepalive"), request(3, "os/pendingTaskRequests"),
                    expect: [cancelled(.refresh), cancelled(.processing), result(2), pending(3, [])]),
            ]
        },
        ConformanceCheck(
            "invoke.cancelCancelListener.rejects-pending", section: 3,
            rule:
                "cancelCancelListener rejects the pending cancel invoke, if any, with reason listenerCancelled, then "
                + "resolves."
        ) { _ in
            [
                .send(request(1, "waitForCancel"), expect: []),
                .send(request(2, "cancelCancelListener"), expect: [rejected(1, "listenerCancelled"), result(2)]),
                .send(request(3, "cancelCancelListener"), expect: [result(3)]),
            ]
        },
        ConformanceCheck(
            "invoke.cancelCancelListener.keeps-task", section: 3,
            rule: "cancelCancelListener touches nothing else: the active task and its safety timer stay."
        ) { p in
            [
                .send(
                    startKeepalive(1), launch(2, .refresh), request(3, "waitForCancel"), ping(4), state(5),
                    expect: [
                        result(1), launchResult(2, .refresh, at: "0"), rejected(3, "listenerCancelled"), result(4),
                        ConformanceState.with(p) {
                            $0.activeTask = ConformanceState.active(.refresh, at: "0")
                            $0.safetyTimer = "28"
                            $0.pendingRequests = [requestInfo(.processing, at: "900")]
                            $0.launched = 1
                        }.reply(5),
                    ])
            ]
        },
    ]
}
