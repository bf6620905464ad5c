import HostProtocol

/// Section 5, continued: the `os/` controls (`os/launch`, `os/expire`, `os/advanceTime`,
/// `os/pendingTaskRequests`, `os/setConditions`).
extension ConformanceCatalogue {
    /// The checks of the `os/` controls.
    static let osControls: [ConformanceCheck] = [
        ConformanceCheck(
            "os.launch.ignores-earliest-begin-date", section: 5,
            rule:
                "os/launch needs a pending request for the identifier and removes it; it ignores earliestBeginDate; "
                + "result {identifier, kind, at}."
        ) { _ in
            [
                .send(
                    startKeepalive(1), advance(2, "1.25"), launch(3, .refresh), request(4, "os/pendingTaskRequests"),
                    expect: [
                        result(1), now(2, "1.25"), launchResult(3, .refresh, at: "1.25"),
                        pending(4, [requestInfo(.processing, at: "900")]),
                    ])
            ]
        },
        ConformanceCheck(
            "os.launch.errors", section: 5,
            rule:
                "os/launch: an identifier that is not registered is -32602; nothing pending to launch is -32002; a "
                + "launch while a task runs is -32002."
        ) { _ in
            [
                .send(
                    request(1, "os/launch", #"{"identifier":"com.example.app.bg-unknown"}"#), launch(2, .refresh),
                    startKeepalive(3), launch(4, .refresh), launch(5, .refresh),
                    expect: [
                        failure(1, -32602), failure(2, -32002), result(3), launchResult(4, .refresh, at: "0"),
                        failure(5, -32002),
                    ])
            ]
        },
        ConformanceCheck(
            "os.expire.errors", section: 5,
            rule:
                "os/expire: an identifier that is not registered is -32602; a task that is not running is -32002; "
                + "result null."
        ) { _ in
            [
                .send(
                    request(1, "os/expire", #"{"identifier":"com.example.app.bg-unknown"}"#),
                    request(2, "os/expire", identifier(.refresh)),
                    startKeepalive(3), launch(4, .refresh), request(5, "os/expire", identifier(.processing)),
                    request(6, "os/expire", identifier(.refresh)),
                    request(7, "os/expire", identifier(.refresh)),
                    expect: [
                        failure(1, -32602), failure(2, -32002), result(3), launchResult(4, .refresh, at: "0"),
                        failure(5, -32002), result(6), failure(7, -32002),
                    ])
            ]
        },
        ConformanceCheck(
            "os.advanceTime.result", section: 5,
            rule:
                "os/advanceTime {seconds >= 0} moves the virtual clock and answers {now}; times are seconds as JSON "
                + "numbers, exact to the nanosecond."
        ) { _ in
            [
                .send(
                    advance(1, "1.5"), advance(2, "0"), advance(3, "0.000000001"), advance(4, "86400"),
                    expect: [now(1, "1.5"), now(2, "1.5"), now(3, "1.500000001"), now(4, "86401.500000001")])
            ]
        },
        ConformanceCheck(
            "os.advanceTime.errors", section: 5,
            rule: "os/advanceTime: a negative, missing or non-number seconds is -32602, and the clock does not move."
        ) { _ in
            [
                .send(
                    advance(1, "-1"), advance(2, #""5""#), request(3, "os/advanceTime"), advance(4, "0"),
                    expect: [failure(1, -32602), failure(2, -32602), failure(3, -32602), now(4, "0")])
            ]
        },
        ConformanceCheck(
            "os.advanceTime.real-clock", section: 5,
            rule: "os/advanceTime under --clock real is -32002 (time control needs the virtual clock).",
            flags: ["--clock", "real"]
        ) { _ in [.send(advance(1, "1"), expect: [failure(1, -32002)])] },
        ConformanceCheck(
            "os.pendingTaskRequests.sorted", section: 5,
            rule:
                "os/pendingTaskRequests lists {identifier, kind, earliestBeginDate, requiresExternalPower, "
                + "requiresNetworkConnectivity}, sorted by identifier."
        ) { _ in
            [
                .send(
                    request(1, "os/pendingTaskRequests"),
                    startKeepalive(
                        2,
                        #"{"iosEarliestRefreshBeginMinutes":2,"iosEarliestProcessingBeginMinutes":1,"#
                            + #""iosRequiresNetworkConnectivity":true}"#
                    ),
                    request(3, "os/pendingTaskRequests"),
                    expect: [
                        pending(1, []), result(2),
                        pending(
                            3, [requestInfo(.processing, at: "60", network: true), requestInfo(.refresh, at: "120")]),
                    ])
            ]
        },
        ConformanceCheck(
            "os.setConditions.result", section: 5,
            rule:
                "os/setConditions applies the given fields and answers the full conditions object; defaults: "
                + "available, externalPower false, networkConnected true, autoLaunch false."
        ) { _ in
            [
                .send(
                    request(1, "os/setConditions", "{}"), request(2, "os/setConditions", #"{"externalPower":true}"#),
                    request(
                        3, "os/setConditions",
                        #"{"networkConnected":false,"autoLaunch":true,"backgroundRefreshStatus":"restricted"}"#),
                    request(4, "os/setConditions"),
                    expect: [
                        result(1, conditions()), result(2, conditions(power: true)),
                        result(3, conditions(autoLaunch: true, status: "restricted", power: true, network: false)),
                        result(4, conditions(autoLaunch: true, status: "restricted", power: true, network: false)),
                    ])
            ]
        },
        ConformanceCheck(
            "os.setConditions.errors", section: 5,
            rule: "os/setConditions: an unknown status or a field of the wrong type is -32602."
        ) { _ in
            [
                .send(
                    request(1, "os/setConditions", #"{"backgroundRefreshStatus":"maybe"}"#),
                    request(2, "os/setConditions", #"{"externalPower":"yes"}"#),
                    request(3, "os/setConditions", #"{"networkConnected":1}"#), request(4, "os/setConditions", "{}"),
                    expect: [failure(1, -32602), failure(2, -32602), failure(3, -32602), result(4, conditions())])
            ]
        },
    ]
}
