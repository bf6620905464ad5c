import HostProtocol

/// Section 3: the five invokes, their orders of outputs, and the profile rules.
extension ConformanceCatalogue {
    /// The checks of section 3.
    static let invokes: [ConformanceCheck] = invokesStarting + invokesCompleting + invokesStopping

    /// The checks of section 3 for `startKeepalive` and `waitForCancel`.
    static let invokesStarting: [ConformanceCheck] = [
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
            rule:
                "waitForCancel is stored as the pending cancel invoke, whatever the task state, and not answered now."
        ) { p in
            [
                .send(request("w", "waitForCancel"), expect: []),
                .send(state(2), expect: [ConformanceState.with(p) { $0.pendingCancelInvoke = #""w""# }.reply(2)]),
            ]
        },
        ConformanceCheck(
            "profile.seed.superseded-dropped", section: 3,
            rule:
                "single-pending (seed): a second waitForCancel replaces the pending one, which is dropped and "
                + "never answered.",
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
    ]
}
