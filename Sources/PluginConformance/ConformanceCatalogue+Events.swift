import HostProtocol

/// Section 6: events.
extension ConformanceCatalogue {
    /// The checks of section 6.
    static let events: [ConformanceCheck] = [
        ConformanceCheck(
            "events.only-after-initialize", section: 6,
            rule:
                "Events are sent only after initialize with capabilities.events: true (or with --events): none before, "
                + "not even notifications of methods the contract does not name."
        ) { p in
            [
                .send(startKeepalive(1), launch(2, .refresh), expect: [result(1), launchResult(2, .refresh, at: "0")])
                    .judgingEveryNotification,
                .send(initialize(3, events: true), expect: [initializeResult(3, p)]),
                .send(
                    request(4, "stopKeepalive"),
                    expect: [
                        cancelled(.processing), completed(.refresh, success: false, at: "0"),
                        timer("invalidated", deadline: "28"), result(4),
                    ]),
            ]
        },
        ConformanceCheck(
            "events.initialize-without-events", section: 6,
            rule: "initialize with capabilities.events: false (or without capabilities) turns no events on."
        ) { p in
            [
                .send(
                    initialize(1, events: false), startKeepalive(2), request(3, "initialize"),
                    request(4, "stopKeepalive"),
                    expect: [initializeResult(1, p), result(2), initializeResult(3, p), result(4)])
            ]
        },
        ConformanceCheck(
            "events.flag", section: 6,
            rule: "--events sends events from the start, without initialize.", flags: ["--events"]
        ) { _ in [.send(startKeepalive(1), expect: scheduleNext(refreshAt: "900") + [result(1)])] },
        ConformanceCheck(
            "events.requestSubmitted", section: 6,
            rule: "os/requestSubmitted carries the request as os/pendingTaskRequests shows it.", flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1, #"{"iosEarliestProcessingBeginMinutes":3,"iosRequiresExternalPower":true}"#),
                    expect: [submitted(.refresh, at: "900"), submitted(.processing, at: "180", power: true), result(1)])
            ]
        },
        ConformanceCheck(
            "events.submitFailed", section: 6,
            rule: "os/submitFailed carries identifier and error (the scheduler error).", flags: ["--events"]
        ) { _ in
            [
                .send(
                    setConditions(1, #"{"backgroundRefreshStatus":"restricted"}"#), startKeepalive(2),
                    expect: [
                        result(1, conditions(status: "restricted")), submitFailed(.refresh, "unavailable"),
                        submitFailed(.processing, "unavailable"), result(2),
                    ])
            ]
        },
        ConformanceCheck(
            "events.requestCancelled", section: 6,
            rule: "os/requestCancelled carries the identifier of each pending request cancelled.", flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), request(2, "stopKeepalive"),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), cancelled(.refresh), cancelled(.processing), result(2),
                    ])
            ]
        },
        ConformanceCheck(
            "events.taskLaunched", section: 6,
            rule: "os/taskLaunched carries identifier, kind and at, and comes before what the launch handler does.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1, #"{"iosProcessingSafetyTimeoutSecs":9}"#), advance(2, "4"),
                    launch(3, .processing),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), now(2, "4"), launched(.processing, at: "4"), timer("started", deadline: "13"),
                        launchResult(3, .processing, at: "4"),
                    ])
            ]
        },
        ConformanceCheck(
            "events.taskExpired", section: 6,
            rule: "os/taskExpired carries identifier and at, and comes before what the expiration handler does.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), launch(2, .processing), advance(3, "2"),
                    request(4, "os/expire", identifier(.processing)),
                    expect: startedAndLaunched(.processing) + [
                        now(3, "2"),
                        expired(.processing, at: "2"), completed(.processing, success: false, at: "2"),
                    ] + scheduleNext(refreshAt: "902") + [result(4)])
            ]
        },
        ConformanceCheck(
            "events.taskCompleted", section: 6,
            rule: "os/taskCompleted carries identifier, success and at.", flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), launch(2, .processing), advance(3, "0.5"),
                    request(4, "completeBgTask", #"{"success":false}"#),
                    expect: startedAndLaunched(.processing) + [
                        now(3, "0.5"),
                        completed(.processing, success: false, at: "0.5"),
                    ] + scheduleNext(refreshAt: "900.5") + [result(4)])
            ]
        },
        ConformanceCheck(
            "events.safetyTimer", section: 6,
            rule: "plugin/safetyTimer carries state (started, fired, invalidated) and deadline.", flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1, #"{"iosSafetyTimeoutSecs":3}"#), launch(2, .refresh),
                    request(3, "completeBgTask"), launch(4, .refresh), advance(5, "3"),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), launched(.refresh, at: "0"), timer("started", deadline: "3"),
                        launchResult(2, .refresh, at: "0"),
                        completed(.refresh, success: true, at: "0"),
                    ] + scheduleNext(refreshAt: "900") + [
                        timer("invalidated", deadline: "3"), result(3),
                        launched(.refresh, at: "0"), timer("started", deadline: "3"),
                        launchResult(4, .refresh, at: "0"),
                        timer("fired", deadline: "3"), completed(.refresh, success: false, at: "3"),
                    ] + scheduleNext(refreshAt: "903") + [now(5, "3")])
            ]
        },
        ConformanceCheck(
            "events.causal-order", section: 6,
            rule: "Each event is written at the moment it happens, in causal order with the responses.",
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
                    ping(4), request(5, "waitForCancel"), request(6, "stopKeepalive"),
                    expect: [
                        rejected(2, "listenerCancelled"), result(4), cancelled(.processing), rejected(5, "stopped"),
                        completed(.refresh, success: false, at: "0"),
                        timer("invalidated", deadline: "28"), result(6),
                    ]),
            ]
        },
    ]
}
