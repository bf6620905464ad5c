import HostProtocol

/// Section 2, last paragraph: sorted keys, compact output, byte-for-byte determinism.
extension ConformanceCatalogue {
    /// The checks of section 2, determinism.
    static let determinism: [ConformanceCheck] = [
        ConformanceCheck(
            "determinism.output.sorted-compact", section: 2,
            rule:
                "Replies and events are compact JSON with object keys sorted (every frame's text is judged: no "
                + "whitespace outside strings, each object's keys in UTF-8 byte order).",
            flags: ["--events"], judgesTextForm: true
        ) { _ in
            [
                .send(
                    startKeepalive(1, #"{"iosRequiresExternalPower":true}"#), setConditions(2, "{}"),
                    request(3, "os/pendingTaskRequests"), launch(4, .processing),
                    expect: [
                        submitted(.refresh, at: "900"), submitted(.processing, at: "900", power: true), result(1),
                        result(2, conditions()),
                        pending(
                            3, [requestInfo(.processing, at: "900", power: true), requestInfo(.refresh, at: "900")]),
                        launched(.processing, at: "0"), launchResult(4, .processing, at: "0"),
                    ])
            ]
        },
        ConformanceCheck(
            "determinism.virtual-clock", section: 2,
            rule:
                "With the virtual clock the whole output is a byte-for-byte function of the input and the flags: the "
                + "same script in two processes writes identical bytes.",
            flags: ["--events"], runsTwice: true
        ) { p in
            [
                .send(
                    startKeepalive(
                        1,
                        #"{"iosSafetyTimeoutSecs":12.5,"iosEarliestRefreshBeginMinutes":0.5,"#
                            + #""iosEarliestProcessingBeginMinutes":0.75}"#
                    ),
                    request(2, "waitForCancel"), setConditions(3, #"{"autoLaunch":true}"#),
                    expect: scheduleNext(refreshAt: "30", processingAt: "45") + [
                        result(1), result(3, conditions(autoLaunch: true)),
                    ]),
                .send(
                    advance(4, "100"),
                    expect: [
                        launched(.refresh, at: "30"), timer("started", deadline: "42.5"),
                        timer("fired", deadline: "42.5"), result(2),
                        completed(.refresh, success: false, at: "42.5"),
                    ] + scheduleNext(refreshAt: "72.5", processingAt: "87.5")
                        + [
                            launched(.refresh, at: "72.5"), timer("started", deadline: "85"),
                            timer("fired", deadline: "85"), completed(.refresh, success: false, at: "85"),
                        ]
                        + scheduleNext(refreshAt: "115", processingAt: "130") + [now(4, "100")]),
                .send(
                    launch(5, .refresh), request(6, "os/expire", identifier(.processing)),
                    request(7, "completeBgTask", #"{"success":true}"#), state(8),
                    expect: [
                        launched(.refresh, at: "100"), timer("started", deadline: "112.5"),
                        launchResult(5, .refresh, at: "100"), failure(6, -32002),
                        completed(.refresh, success: true, at: "100"),
                    ] + scheduleNext(refreshAt: "130", processingAt: "145")
                        + [
                            timer("invalidated", deadline: "112.5"), result(7),
                            ConformanceState.with(p) {
                                $0.now = "100"
                                $0.safetyTimeout = "12.5"
                                $0.refreshMinutes = "0.5"
                                $0.processingMinutes = "0.75"
                                $0.pendingRequests = [
                                    requestInfo(.processing, at: "145"), requestInfo(.refresh, at: "130"),
                                ]
                                $0.conditions = conditions(autoLaunch: true)
                                $0.launched = 3
                                $0.completed = 3
                            }.reply(8),
                        ]),
            ]
        },
    ]
}
