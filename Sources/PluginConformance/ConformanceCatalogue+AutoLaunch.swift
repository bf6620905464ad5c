import HostProtocol

/// Section 5, second half: the autoLaunch policy.
extension ConformanceCatalogue {
    /// `os/setConditions` with the given params.
    static func setConditions(_ id: ID, _ params: String) -> String { request(id, "os/setConditions", params) }

    /// The checks of section 5: the autoLaunch policy.
    static let autoLaunch: [ConformanceCheck] = [
        ConformanceCheck(
            "autolaunch.off-by-default", section: 5,
            rule: "autoLaunch is off by default: advancing time past earliestBeginDate launches nothing."
        ) { p in
            [
                .send(
                    startKeepalive(1), advance(2, "2000"), state(3),
                    expect: [
                        result(1), now(2, "2000"),
                        ConformanceState.with(p) {
                            $0.now = "2000"
                            $0.pendingRequests = [
                                requestInfo(.processing, at: "900"), requestInfo(.refresh, at: "900"),
                            ]
                        }.reply(3),
                    ])
            ]
        },
        ConformanceCheck(
            "autolaunch.setConditions-launches-nothing", section: 5,
            rule: "os/setConditions itself launches nothing; eligible requests launch as time advances (even by 0).",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1, #"{"iosEarliestRefreshBeginMinutes":0,"iosEarliestProcessingBeginMinutes":0}"#),
                    setConditions(2, #"{"autoLaunch":true}"#),
                    expect: scheduleNext(refreshAt: "0") + [result(1), result(2, conditions(autoLaunch: true))]),
                .send(
                    advance(3, "0"),
                    expect: [launched(.refresh, at: "0"), timer("started", deadline: "28"), now(3, "0")]),
            ]
        },
        ConformanceCheck(
            "autolaunch.earliest-begin-date-refresh-first", section: 5,
            rule:
                "An eligible request launches at its earliestBeginDate; at equal times refresh launches before "
                + "processing, and nothing launches while a task is active.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), setConditions(2, #"{"autoLaunch":true}"#),
                    expect: scheduleNext(refreshAt: "900") + [result(1), result(2, conditions(autoLaunch: true))]),
                .send(advance(3, "899.999999999"), expect: [now(3, "899.999999999")]),
                .send(
                    advance(4, "100.000000001"),
                    expect: [
                        launched(.refresh, at: "900"), timer("started", deadline: "928"),
                        timer("fired", deadline: "928"),
                        completed(.refresh, success: false, at: "928"),
                    ] + scheduleNext(refreshAt: "1828") + [now(4, "1000")]),
            ]
        },
        ConformanceCheck(
            "autolaunch.processing-constraints", section: 5,
            rule:
                "A processing request also needs its constraints met (requiresExternalPower needs externalPower, "
                + "requiresNetworkConnectivity needs networkConnected); it launches at the later of "
                + "earliestBeginDate and the moment it became eligible.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(
                        1,
                        #"{"iosEarliestRefreshBeginMinutes":1000,"iosEarliestProcessingBeginMinutes":1,"#
                            + #""iosRequiresExternalPower":true,"iosRequiresNetworkConnectivity":true}"#
                    ),
                    setConditions(2, #"{"autoLaunch":true}"#),
                    expect: scheduleNext(refreshAt: "60000", processingAt: "60", power: true, network: true) + [
                        result(1), result(2, conditions(autoLaunch: true)),
                    ]),
                .send(advance(3, "120"), expect: [now(3, "120")]),
                .send(
                    setConditions(4, #"{"externalPower":true,"networkConnected":false}"#), advance(5, "10"),
                    expect: [result(4, conditions(autoLaunch: true, power: true, network: false)), now(5, "130")]),
                .send(
                    setConditions(6, #"{"networkConnected":true}"#), advance(7, "10"),
                    expect: [
                        result(6, conditions(autoLaunch: true, power: true)), launched(.processing, at: "130"),
                        now(7, "140"),
                    ]),
            ]
        },
        ConformanceCheck(
            "autolaunch.waits-for-active-task", section: 5,
            rule:
                "An eligible request never launches while a task is active; it launches once the active task is "
                + "completed, at that moment of the clock or later.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(
                        1,
                        #"{"iosEarliestRefreshBeginMinutes":0,"iosEarliestProcessingBeginMinutes":0,"#
                            + #""iosSafetyTimeoutSecs":100}"#
                    ), launch(2, .refresh),
                    setConditions(3, #"{"autoLaunch":true}"#), advance(4, "10"),
                    expect: scheduleNext(refreshAt: "0") + [
                        result(1), launched(.refresh, at: "0"), timer("started", deadline: "100"),
                        launchResult(2, .refresh, at: "0"),
                        result(3, conditions(autoLaunch: true)), now(4, "10"),
                    ]),
                .send(
                    startKeepalive(5, #"{"iosEarliestRefreshBeginMinutes":60}"#), request(6, "completeBgTask"),
                    expect: scheduleNext(refreshAt: "3610", processingAt: "10") + [
                        result(5), completed(.refresh, success: true, at: "10"),
                    ]
                        + scheduleNext(refreshAt: "3610", processingAt: "10") + [
                            timer("invalidated", deadline: "100"), result(6),
                        ]),
                .send(advance(7, "5"), expect: [launched(.processing, at: "10"), now(7, "15")]),
            ]
        },
        ConformanceCheck(
            "autolaunch.after-timer-at-same-time", section: 5,
            rule:
                "At equal times timers fire before launches: a request that becomes eligible when the safety timer "
                + "completes the task launches at that same time, refresh first.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(
                        1,
                        #"{"iosEarliestRefreshBeginMinutes":0,"iosEarliestProcessingBeginMinutes":0,"#
                            + #""iosSafetyTimeoutSecs":60}"#
                    ), launch(2, .refresh),
                    setConditions(3, #"{"autoLaunch":true}"#),
                    expect: scheduleNext(refreshAt: "0") + [
                        result(1), launched(.refresh, at: "0"), timer("started", deadline: "60"),
                        launchResult(2, .refresh, at: "0"),
                        result(3, conditions(autoLaunch: true)),
                    ]),
                .send(
                    advance(4, "100"),
                    expect: [timer("fired", deadline: "60"), completed(.refresh, success: false, at: "60")]
                        + scheduleNext(refreshAt: "60")
                        + [launched(.refresh, at: "60"), timer("started", deadline: "120"), now(4, "100")]),
            ]
        },
    ]
}
