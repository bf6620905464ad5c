import HostProtocol

/// Section 3: the five invokes, their orders of outputs, and the profile rules.
extension ConformanceCatalogue {
    /// The checks of section 3.
    static let invokes: [ConformanceCheck] = [
        ConformanceCheck(
            "invoke.startKeepalive.schedule-next", section: 3,
            rule:
                "startKeepalive submits refresh at now + refreshMinutes*60, then processing at now + "
                + "processingMinutes*60 with the two constraints, then resolves with null.",
            flags: ["--events"]
        ) { _ in
            [
                .send(startKeepalive(1), expect: scheduleNext(refreshAt: "900") + [result(1)]),
                .send(advance(2, "60"), expect: [now(2, "60")]),
                .send(
                    startKeepalive(
                        3,
                        #"{"iosEarliestRefreshBeginMinutes":1,"iosEarliestProcessingBeginMinutes":2.5,"#
                            + #""iosRequiresExternalPower":true,"iosRequiresNetworkConnectivity":true}"#
                    ),
                    expect: scheduleNext(refreshAt: "120", processingAt: "210", power: true, network: true) + [
                        result(3)
                    ]),
            ]
        },
        ConformanceCheck(
            "invoke.startKeepalive.config-applies", section: 3,
            rule:
                "config-persists: each field given with the right type replaces the stored value (label and "
                + "foregroundServiceType are accepted)."
        ) { p in
            [
                .send(
                    startKeepalive(
                        1,
                        #"{"label":"sync","foregroundServiceType":"dataSync","iosSafetyTimeoutSecs":20,"#
                            + #""iosProcessingSafetyTimeoutSecs":120,"iosEarliestRefreshBeginMinutes":1,"#
                            + #""iosEarliestProcessingBeginMinutes":2.5,"iosRequiresExternalPower":true,"#
                            + #""iosRequiresNetworkConnectivity":true}"#
                    ),
                    state(2),
                    expect: [
                        result(1),
                        ConformanceState.with(p) {
                            $0.safetyTimeout = "20"
                            $0.processingTimeout = "120"
                            $0.refreshMinutes = "1"
                            $0.processingMinutes = "2.5"
                            $0.externalPower = true
                            $0.networkConnectivity = true
                            $0.pendingRequests = [
                                requestInfo(.processing, at: "150", power: true, network: true),
                                requestInfo(.refresh, at: "60"),
                            ]
                        }.reply(2),
                    ])
            ]
        },
        ConformanceCheck(
            "invoke.startKeepalive.config-persists", section: 3,
            rule: "config-persists: absent fields keep the value they had (they do not go back to the default)."
        ) { p in
            [
                .send(
                    startKeepalive(
                        1,
                        #"{"iosSafetyTimeoutSecs":20,"iosEarliestRefreshBeginMinutes":5,"#
                            + #""iosRequiresExternalPower":true}"#
                    ),
                    startKeepalive(2, #"{"iosEarliestProcessingBeginMinutes":7}"#), startKeepalive(3), state(4),
                    expect: [
                        result(1), result(2), result(3),
                        ConformanceState.with(p) {
                            $0.safetyTimeout = "20"
                            $0.refreshMinutes = "5"
                            $0.processingMinutes = "7"
                            $0.externalPower = true
                            $0.pendingRequests = [
                                requestInfo(.processing, at: "420", power: true), requestInfo(.refresh, at: "300"),
                            ]
                        }.reply(4),
                    ])
            ]
        },
        ConformanceCheck(
            "profile.seed.wrong-type-ignored", section: 3,
            rule:
                "config-persists (seed): a startKeepalive field of the wrong type is ignored; the other fields are "
                + "applied.",
            profiles: [.seed]
        ) { p in
            [
                .send(
                    startKeepalive(
                        1,
                        #"{"iosSafetyTimeoutSecs":"20","iosEarliestRefreshBeginMinutes":5,"#
                            + #""iosRequiresExternalPower":1}"#
                    ), state(2),
                    expect: [
                        result(1),
                        ConformanceState.with(p) {
                            $0.refreshMinutes = "5"
                            $0.pendingRequests = [
                                requestInfo(.processing, at: "900"), requestInfo(.refresh, at: "300"),
                            ]
                        }.reply(2),
                    ])
            ]
        },
        ConformanceCheck(
            "profile.strict.wrong-type-rejected", section: 3,
            rule:
                "config-persists (strict): a startKeepalive field of the wrong type gets -32602 and nothing changes "
                + "(nothing is submitted).",
            profiles: [.strict]
        ) { p in
            [
                .send(
                    startKeepalive(
                        1,
                        #"{"iosSafetyTimeoutSecs":"20","iosEarliestRefreshBeginMinutes":5,"#
                            + #""iosRequiresExternalPower":1}"#
                    ), state(2),
                    expect: [failure(1, -32602), ConformanceState(profile: p).reply(2)])
            ]
        },
        ConformanceCheck(
            "invoke.waitForCancel.stored-not-answered", section: 3,
            rule: "waitForCancel is stored as the pending cancel invoke, whatever the task state, and not answered now."
        ) { p in
            [
                .send(request("w", "waitForCancel"), expect: []),
                .send(state(2), expect: [ConformanceState.with(p) { $0.pendingCancelInvoke = #""w""# }.reply(2)]),
            ]
        },
        ConformanceCheck(
            "profile.seed.superseded-dropped", section: 3,
            rule:
                "single-pending (seed): a second waitForCancel replaces the pending one, which is dropped and never "
                + "answered.",
            profiles: [.seed]
        ) { p in
            [
                .send(request(1, "waitForCancel"), request(2, "waitForCancel"), expect: []),
                .send(state(3), expect: [ConformanceState.with(p) { $0.pendingCancelInvoke = "2" }.reply(3)]),
                .send(ping(4), expect: [rejected(2, "listenerCancelled"), result(4)]),
                .send(request(5, "stopKeepalive"), expect: [result(5)]),
            ]
        },
        ConformanceCheck(
            "profile.strict.superseded-rejected", section: 3,
            rule: "single-pending (strict): a second waitForCancel rejects the pending one with reason superseded.",
            profiles: [.strict]
        ) { _ in
            [
                .send(request(1, "waitForCancel"), expect: []),
                .send(request(2, "waitForCancel"), expect: [rejected(1, "superseded")]),
                .send(ping(3), expect: [rejected(2, "listenerCancelled"), result(3)]),
            ]
        },
        ConformanceCheck(
            "invoke.completeBgTask.rejects-pending-before-resolving", section: 3,
            rule: "completeBgTask rejects the pending cancel invoke with reason completed, then resolves itself."
        ) { _ in
            [
                .send(request(1, "waitForCancel"), expect: []),
                .send(
                    request(2, "completeBgTask", #"{"success":true}"#), expect: [rejected(1, "completed"), result(2)]),
            ]
        },
        ConformanceCheck(
            "invoke.completeBgTask.order", section: 3,
            rule:
                "completeBgTask with a task active: complete it with success; reject the pending cancel invoke "
                + "(completed); schedule-next; clean up (invalidate the safety timer); resolve.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1, #"{"iosSafetyTimeoutSecs":20}"#), request(2, "waitForCancel"),
                    launch(3, .refresh), advance(4, "5"),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), launched(.refresh, at: "0"), timer("started", deadline: "20"),
                        launchResult(3, .refresh, at: "0"), now(4, "5"),
                    ]),
                .send(
                    request(5, "completeBgTask", #"{"success":true}"#),
                    expect: [completed(.refresh, success: true, at: "5"), rejected(2, "completed")]
                        + scheduleNext(refreshAt: "905") + [timer("invalidated", deadline: "20"), result(5)]),
            ]
        },
        ConformanceCheck(
            "invoke.completeBgTask.no-task-no-reschedule", section: 3,
            rule:
                "completeBgTask with no task active does not reschedule: it only rejects the pending cancel invoke and "
                + "resolves.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), request(2, "waitForCancel"), advance(3, "10"),
                    expect: scheduleNext(refreshAt: "900") + [result(1), now(3, "10")]),
                .send(request(4, "completeBgTask"), expect: [rejected(2, "completed"), result(4)]),
                .send(
                    request(5, "os/pendingTaskRequests"),
                    expect: [pending(5, [requestInfo(.processing, at: "900"), requestInfo(.refresh, at: "900")])]),
            ]
        },
        ConformanceCheck(
            "invoke.completeBgTask.success-false", section: 3,
            rule: "completeBgTask {success: false} completes the active task with false.", flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), launch(2, .processing),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), launched(.processing, at: "0"), launchResult(2, .processing, at: "0"),
                    ]),
                .send(
                    request(3, "completeBgTask", #"{"success":false}"#),
                    expect: [completed(.processing, success: false, at: "0")] + scheduleNext(refreshAt: "900") + [
                        result(3)
                    ]),
            ]
        },
        ConformanceCheck(
            "invoke.completeBgTask.success-default", section: 3,
            rule: "success-default: completeBgTask without success completes the task with true (both profiles).",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), launch(2, .refresh),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), launched(.refresh, at: "0"), timer("started", deadline: "28"),
                        launchResult(2, .refresh, at: "0"),
                    ]),
                .send(
                    request(3, "completeBgTask"),
                    expect: [completed(.refresh, success: true, at: "0")] + scheduleNext(refreshAt: "900") + [
                        timer("invalidated", deadline: "28"), result(3),
                    ]),
                .send(
                    launch(4, .processing),
                    expect: [launched(.processing, at: "0"), launchResult(4, .processing, at: "0")]),
                .send(
                    request(5, "completeBgTask", "{}"),
                    expect: [completed(.processing, success: true, at: "0")] + scheduleNext(refreshAt: "900") + [
                        result(5)
                    ]),
            ]
        },
        ConformanceCheck(
            "profile.seed.success-not-bool-is-true", section: 3,
            rule: "success-default (seed): a success that is not a bool means true.", profiles: [.seed],
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), launch(2, .processing),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), launched(.processing, at: "0"), launchResult(2, .processing, at: "0"),
                    ]),
                .send(
                    request(3, "completeBgTask", #"{"success":"no"}"#),
                    expect: [completed(.processing, success: true, at: "0")] + scheduleNext(refreshAt: "900") + [
                        result(3)
                    ]),
            ]
        },
        ConformanceCheck(
            "profile.strict.success-not-bool-rejected", section: 3,
            rule: "success-default (strict): a success that is not a bool is -32602 and the task stays active.",
            profiles: [.strict]
        ) { p in
            [
                .send(
                    startKeepalive(1), launch(2, .refresh), request(3, "waitForCancel"),
                    expect: [result(1), launchResult(2, .refresh, at: "0")]),
                .send(
                    request(4, "completeBgTask", #"{"success":"no"}"#), state(5),
                    expect: [
                        failure(4, -32602),
                        ConformanceState.with(p) {
                            $0.activeTask = ConformanceState.active(.refresh, at: "0")
                            $0.pendingCancelInvoke = "3"
                            $0.safetyTimer = "28"
                            $0.pendingRequests = [requestInfo(.processing, at: "900")]
                            $0.launched = 1
                        }.reply(5),
                    ]),
            ]
        },
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
