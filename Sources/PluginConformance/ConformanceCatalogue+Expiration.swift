import HostProtocol

/// Section 4, continued: expiration, exactly-once completion and one active task.
extension ConformanceCatalogue {
    /// The checks of section 4 for expiration, exactly-once and one-active.
    static let tasksEnding: [ConformanceCheck] = [
        ConformanceCheck(
            "task.expiration.order", section: 4,
            rule:
                "expiration: resolve the pending cancel invoke (null); complete the active task with false; "
                + "schedule-next; clean up.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), request(2, "waitForCancel"), launch(3, .refresh), advance(4, "3"),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), launched(.refresh, at: "0"), timer("started", deadline: "28"),
                        launchResult(3, .refresh, at: "0"), now(4, "3"),
                    ]),
                .send(
                    request(5, "os/expire", identifier(.refresh)),
                    expect: [expired(.refresh, at: "3"), result(2), completed(.refresh, success: false, at: "3")]
                        + scheduleNext(refreshAt: "903") + [timer("invalidated", deadline: "28"), result(5)]),
            ]
        },
        ConformanceCheck(
            "task.expiration.processing", section: 4,
            rule: "expiration: the same for a processing task (no safety timer to invalidate).", flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), launch(2, .processing), request(3, "waitForCancel"),
                    expect: startedAndLaunched(.processing)),
                .send(
                    request(4, "os/expire", identifier(.processing)),
                    expect: [expired(.processing, at: "0"), result(3), completed(.processing, success: false, at: "0")]
                        + scheduleNext(refreshAt: "900") + [result(4)]),
            ]
        },
        ConformanceCheck(
            "task.exactly-once.complete-after-expiration", section: 4,
            rule:
                "exactly-once: after an expiration completed the task, completeBgTask completes nothing (no second "
                + "completion, no violation, no reschedule).",
            flags: ["--events"]
        ) { p in
            [
                .send(
                    startKeepalive(1), launch(2, .refresh), request(3, "os/expire", identifier(.refresh)),
                    expect: startedAndLaunched(.refresh) + [
                        expired(.refresh, at: "0"), completed(.refresh, success: false, at: "0"),
                    ] + scheduleNext(refreshAt: "900") + [timer("invalidated", deadline: "28"), result(3)]),
                .send(
                    request(4, "completeBgTask"), state(5),
                    expect: [
                        result(4),
                        ConformanceState.with(p) {
                            $0.pendingRequests = [
                                requestInfo(.processing, at: "900"), requestInfo(.refresh, at: "900"),
                            ]
                            $0.launched = 1
                            $0.completed = 1
                            $0.expired = 1
                        }.reply(5),
                    ]),
            ]
        },
        ConformanceCheck(
            "task.exactly-once.complete-after-stop", section: 4,
            rule:
                "exactly-once: stopKeepalive completes the active task once; a later completeBgTask completes nothing.",
            flags: ["--events"]
        ) { p in
            [
                .send(
                    startKeepalive(1), launch(2, .processing), request(3, "stopKeepalive"),
                    request(4, "completeBgTask"),
                    expect: startedAndLaunched(.processing) + [
                        cancelled(.refresh), completed(.processing, success: false, at: "0"), result(3), result(4),
                    ]),
                .send(
                    state(5),
                    expect: [
                        ConformanceState.with(p) {
                            $0.launched = 1
                            $0.completed = 1
                        }.reply(5)
                    ]),
            ]
        },
        ConformanceCheck(
            "task.exactly-once.complete-after-timer", section: 4,
            rule:
                "exactly-once: after the safety timer completed the task, completeBgTask and os/expire complete "
                + "nothing.",
            flags: ["--events"]
        ) { p in
            [
                .send(
                    startKeepalive(1, #"{"iosSafetyTimeoutSecs":5}"#), launch(2, .refresh), advance(3, "5"),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), launched(.refresh, at: "0"), timer("started", deadline: "5"),
                        launchResult(2, .refresh, at: "0"),
                        timer("fired", deadline: "5"), completed(.refresh, success: false, at: "5"),
                    ] + scheduleNext(refreshAt: "905") + [now(3, "5")]),
                .send(
                    request(4, "completeBgTask", #"{"success":false}"#), request(5, "os/expire", identifier(.refresh)),
                    state(6),
                    expect: [
                        result(4), failure(5, -32002),
                        ConformanceState.with(p) {
                            $0.now = "5"
                            $0.safetyTimeout = "5"
                            $0.pendingRequests = [
                                requestInfo(.processing, at: "905"), requestInfo(.refresh, at: "905"),
                            ]
                            $0.launched = 1
                            $0.completed = 1
                        }.reply(6),
                    ]),
            ]
        },
        ConformanceCheck(
            "task.one-active.launch-while-running", section: 4,
            rule: "one-active: os/launch while a task is active is -32002, and nothing changes."
        ) { p in
            [
                .send(
                    startKeepalive(1), launch(2, .refresh), launch(3, .processing), state(4),
                    expect: [
                        result(1), launchResult(2, .refresh, at: "0"), failure(3, -32002),
                        ConformanceState.with(p) {
                            $0.activeTask = ConformanceState.active(.refresh, at: "0")
                            $0.safetyTimer = "28"
                            $0.pendingRequests = [requestInfo(.processing, at: "900")]
                            $0.launched = 1
                        }.reply(4),
                    ])
            ]
        },
        ConformanceCheck(
            "task.one-active.launch-after-completion", section: 4,
            rule: "one-active: once the active task is completed, the next launch is accepted."
        ) { _ in
            [
                .send(
                    startKeepalive(1), launch(2, .refresh), request(3, "completeBgTask"), launch(4, .processing),
                    expect: [
                        result(1), launchResult(2, .refresh, at: "0"), result(3), launchResult(4, .processing, at: "0"),
                    ])
            ]
        },
    ]
}
