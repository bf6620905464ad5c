import HostProtocol

/// Section 4: launches, expiration and the safety timer.
extension ConformanceCatalogue {
    /// The checks of section 4.
    static let tasks: [ConformanceCheck] = tasksLaunching + tasksEnding

    /// The checks of section 4 for launches and the safety timer.
    static let tasksLaunching: [ConformanceCheck] = [
        ConformanceCheck(
            "task.register-at-load", section: 4,
            rule:
                "register-at-load: before serving anything, <bundle-id>.bg-refresh (refresh) and "
                + "<bundle-id>.bg-processing (processing) are registered.",
            flags: ["--bundle-id", "org.example.demo"]
        ) { p in
            [
                .send(
                    state(1), request(2, "os/launch", #"{"identifier":"com.example.app.bg-refresh"}"#),
                    expect: [
                        ConformanceState.with(p) {
                            $0.registered = ConformanceState.registrations(bundle: "org.example.demo")
                        }.reply(1), failure(2, -32602),
                    ])
            ]
        },
        ConformanceCheck(
            "task.refresh-launch", section: 4,
            rule:
                "refresh-launch: the launched refresh task becomes the active task and a safety timer of "
                + "iosSafetyTimeoutSecs starts.",
            flags: ["--events"]
        ) { p in
            [
                .send(
                    startKeepalive(1, #"{"iosSafetyTimeoutSecs":20}"#), advance(2, "10"),
                    expect: scheduleNext(refreshAt: "900") + [result(1), now(2, "10")]),
                .send(
                    launch(3, .refresh),
                    expect: [
                        launched(.refresh, at: "10"), timer("started", deadline: "30"),
                        launchResult(3, .refresh, at: "10"),
                    ]),
                .send(
                    state(4),
                    expect: [
                        ConformanceState.with(p) {
                            $0.now = "10"
                            $0.activeTask = ConformanceState.active(.refresh, at: "10")
                            $0.safetyTimer = "30"
                            $0.safetyTimeout = "20"
                            $0.pendingRequests = [requestInfo(.processing, at: "900")]
                            $0.launched = 1
                        }.reply(4)
                    ]),
            ]
        },
        ConformanceCheck(
            "task.refresh-launch.default-timeout", section: 4,
            rule: "refresh-launch: the safety timer always starts, 28 s by default.", flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), launch(2, .refresh),
                    expect: startedAndLaunched(.refresh))
            ]
        },
        ConformanceCheck(
            "task.processing-launch.no-timer-by-default", section: 4,
            rule: "processing-launch: without iosProcessingSafetyTimeoutSecs no safety timer starts.",
            flags: ["--events"]
        ) { p in
            [
                .send(
                    startKeepalive(1), launch(2, .processing),
                    expect: startedAndLaunched(.processing)),
                .send(
                    state(3),
                    expect: [
                        ConformanceState.with(p) {
                            $0.activeTask = ConformanceState.active(.processing, at: "0")
                            $0.pendingRequests = [requestInfo(.refresh, at: "900")]
                            $0.launched = 1
                        }.reply(3)
                    ]),
            ]
        },
        ConformanceCheck(
            "task.processing-launch.timer-when-positive", section: 4,
            rule: "processing-launch: a safety timer starts when iosProcessingSafetyTimeoutSecs > 0.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1, #"{"iosProcessingSafetyTimeoutSecs":60}"#), launch(2, .processing),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), launched(.processing, at: "0"), timer("started", deadline: "60"),
                        launchResult(2, .processing, at: "0"),
                    ])
            ]
        },
        ConformanceCheck(
            "task.processing-launch.no-timer-when-not-positive", section: 4,
            rule: "processing-launch: iosProcessingSafetyTimeoutSecs <= 0 means no safety timer.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1, #"{"iosProcessingSafetyTimeoutSecs":0}"#), launch(2, .processing),
                    expect: startedAndLaunched(.processing)),
                .send(
                    request(3, "completeBgTask"), startKeepalive(4, #"{"iosProcessingSafetyTimeoutSecs":-5}"#),
                    launch(5, .processing),
                    expect: [completed(.processing, success: true, at: "0")] + scheduleNext(refreshAt: "900") + [
                        result(3)
                    ] + scheduleNext(refreshAt: "900")
                        + [result(4), launched(.processing, at: "0"), launchResult(5, .processing, at: "0")]),
            ]
        },
        ConformanceCheck(
            "timer.one-timer", section: 4,
            rule: "one-timer: starting a safety timer invalidates the previous one; an old timer never fires.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), launch(2, .refresh), advance(3, "10"),
                    expect: startedAndLaunched(.refresh) + [
                        now(3, "10")
                    ]),
                .send(
                    request(4, "completeBgTask"), launch(5, .refresh),
                    expect: [completed(.refresh, success: true, at: "10")] + scheduleNext(refreshAt: "910") + [
                        timer("invalidated", deadline: "28"), result(4),
                        launched(.refresh, at: "10"), timer("started", deadline: "38"),
                        launchResult(5, .refresh, at: "10"),
                    ]),
                .send(
                    advance(6, "30"),
                    expect: [timer("fired", deadline: "38"), completed(.refresh, success: false, at: "38")]
                        + scheduleNext(refreshAt: "938") + [now(6, "40")]),
            ]
        },
        ConformanceCheck(
            "timer.refresh.fires-at-deadline", section: 4,
            rule:
                "safety-timer: it fires at exactly its deadline (27.999999999 s: nothing; 1 ns later: fires): resolve "
                + "the pending cancel invoke; complete the task with false; schedule-next; clean up.",
            flags: ["--events"]
        ) { p in
            [
                .send(
                    startKeepalive(1), request(2, "waitForCancel"), launch(3, .refresh),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), launched(.refresh, at: "0"), timer("started", deadline: "28"),
                        launchResult(3, .refresh, at: "0"),
                    ]),
                .send(advance(4, "27.999999999"), expect: [now(4, "27.999999999")]),
                .send(
                    advance(5, "0.000000001"),
                    expect: [
                        timer("fired", deadline: "28"), result(2), completed(.refresh, success: false, at: "28"),
                    ]
                        + scheduleNext(refreshAt: "928") + [now(5, "28")]),
                .send(
                    state(6),
                    expect: [
                        ConformanceState.with(p) {
                            $0.now = "28"
                            $0.pendingRequests = [
                                requestInfo(.processing, at: "928"), requestInfo(.refresh, at: "928"),
                            ]
                            $0.launched = 1
                            $0.completed = 1
                        }.reply(6)
                    ]),
            ]
        },
        ConformanceCheck(
            "timer.processing.fires-at-deadline", section: 4,
            rule:
                "safety-timer: a processing task's timer fires at exactly iosProcessingSafetyTimeoutSecs after the "
                + "launch.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1, #"{"iosProcessingSafetyTimeoutSecs":45.5}"#), launch(2, .processing),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), launched(.processing, at: "0"), timer("started", deadline: "45.5"),
                        launchResult(2, .processing, at: "0"),
                    ]),
                .send(advance(3, "45.499999999"), expect: [now(3, "45.499999999")]),
                .send(
                    advance(4, "0.000000001"),
                    expect: [timer("fired", deadline: "45.5"), completed(.processing, success: false, at: "45.5")]
                        + scheduleNext(refreshAt: "945.5") + [now(4, "45.5")]),
            ]
        },
        ConformanceCheck(
            "timer.safety.no-task-does-nothing", section: 4,
            rule:
                "safety-timer: with no task active it does nothing (after completeBgTask, passing the old deadline "
                + "changes nothing).",
            flags: ["--events"]
        ) { p in
            [
                .send(
                    startKeepalive(1), launch(2, .refresh), request(3, "completeBgTask"),
                    expect: startedAndLaunched(.refresh) + [
                        completed(.refresh, success: true, at: "0")
                    ] + scheduleNext(refreshAt: "900") + [timer("invalidated", deadline: "28"), result(3)]),
                .send(
                    advance(4, "100"), state(5),
                    expect: [
                        now(4, "100"),
                        ConformanceState.with(p) {
                            $0.now = "100"
                            $0.pendingRequests = [
                                requestInfo(.processing, at: "900"), requestInfo(.refresh, at: "900"),
                            ]
                            $0.launched = 1
                            $0.completed = 1
                        }.reply(5),
                    ]),
            ]
        },
    ]
}
