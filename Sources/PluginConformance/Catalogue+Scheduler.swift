import HostProtocol

/// Section 5, first half: the emulated BGTaskScheduler's rules and the `os/` controls.
extension ConformanceCatalogue {
    /// An XML Info.plist with these permitted identifiers and background modes.
    static func plist(identifiers: [String], modes: [String]) -> String {
        func array(_ items: [String]) -> String { items.map { "\t\t<string>\($0)</string>\n" }.joined() }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>BGTaskSchedulerPermittedIdentifiers</key>
            \t<array>
            \(array(identifiers))\t</array>
            \t<key>UIBackgroundModes</key>
            \t<array>
            \(array(modes))\t</array>
            </dict>
            </plist>

            """
    }

    /// `os/submit` (this implementation's extension) of a request with an explicit date.
    static func submit(_ id: ID, _ identifier: String, _ kind: Kind, at: String) -> String {
        request(
            id, "os/submit", #"{"earliestBeginDate":\#(at),"identifier":"\#(identifier)","kind":"\#(kind.rawValue)"}"#)
    }

    /// Extra processing identifiers for the pending-request limit.
    static let extraProcessing = (1...10).map { "com.example.app.extra-processing-\($0 < 10 ? "0" : "")\($0)" }

    /// The checks of section 5: scheduler and `os/` controls.
    static let scheduler: [ConformanceCheck] = [
        ConformanceCheck(
            "scheduler.submit.not-permitted.identifier", section: 5,
            rule:
                "An identifier not in BGTaskSchedulerPermittedIdentifiers fails with notPermitted (--info-plist); the "
                + "invoke still resolves.",
            flags: ["--events"],
            infoPlist: plist(identifiers: [Kind.refresh.identifier], modes: ["fetch", "processing"])
        ) { _ in
            [
                .send(
                    startKeepalive(1),
                    expect: [submitted(.refresh, at: "900"), submitFailed(.processing, "notPermitted"), result(1)])
            ]
        },
        ConformanceCheck(
            "scheduler.submit.not-permitted.mode", section: 5,
            rule:
                "UIBackgroundModes must hold fetch for refresh and processing for processing, else submit fails with "
                + "notPermitted.",
            flags: ["--events"],
            infoPlist: plist(identifiers: [Kind.refresh.identifier, Kind.processing.identifier], modes: ["processing"])
        ) { _ in
            [
                .send(
                    startKeepalive(1),
                    expect: [submitFailed(.refresh, "notPermitted"), submitted(.processing, at: "900"), result(1)])
            ]
        },
        ConformanceCheck(
            "scheduler.submit.not-permitted.seed-mode-names", section: 5,
            rule:
                "The modes are fetch and processing: background-fetch and background-processing (as the seed's comment "
                + "says) permit nothing.",
            flags: ["--events"],
            infoPlist: plist(
                identifiers: [Kind.refresh.identifier, Kind.processing.identifier],
                modes: ["background-processing", "background-fetch"])
        ) { _ in
            [
                .send(
                    startKeepalive(1),
                    expect: [
                        submitFailed(.refresh, "notPermitted"), submitFailed(.processing, "notPermitted"), result(1),
                    ])
            ]
        },
        ConformanceCheck(
            "scheduler.submit.permitted-plist", section: 5,
            rule: "--info-plist with both identifiers, fetch and processing permits both submissions.",
            flags: ["--events"],
            infoPlist: plist(
                identifiers: [Kind.processing.identifier, Kind.refresh.identifier], modes: ["fetch", "processing"])
        ) { _ in [.send(startKeepalive(1), expect: scheduleNext(refreshAt: "900") + [result(1)])] },
        ConformanceCheck(
            "scheduler.submit.unavailable", section: 5,
            rule:
                "With background refresh denied or restricted, submit fails with unavailable (reported as "
                + "os/submitFailed; the invoke resolves).",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    request(1, "os/setConditions", #"{"backgroundRefreshStatus":"denied"}"#), startKeepalive(2),
                    expect: [
                        result(1, conditions(status: "denied")), submitFailed(.refresh, "unavailable"),
                        submitFailed(.processing, "unavailable"), result(2),
                    ]),
                .send(
                    request(3, "os/setConditions", #"{"backgroundRefreshStatus":"restricted"}"#), startKeepalive(4),
                    expect: [
                        result(3, conditions(status: "restricted")), submitFailed(.refresh, "unavailable"),
                        submitFailed(.processing, "unavailable"), result(4),
                    ]),
                .send(
                    request(5, "os/setConditions", #"{"backgroundRefreshStatus":"available"}"#), startKeepalive(6),
                    expect: [result(5, conditions())] + scheduleNext(refreshAt: "900") + [result(6)]),
            ]
        },
        ConformanceCheck(
            "scheduler.submit.replace", section: 5,
            rule: "Submitting an identifier replaces its pending request."
        ) { _ in
            [
                .send(
                    startKeepalive(1), advance(2, "60"), startKeepalive(3, #"{"iosEarliestRefreshBeginMinutes":1}"#),
                    request(4, "os/pendingTaskRequests"),
                    expect: [
                        result(1), now(2, "60"), result(3),
                        pending(4, [requestInfo(.processing, at: "960"), requestInfo(.refresh, at: "120")]),
                    ])
            ]
        },
        ConformanceCheck(
            "scheduler.submit.too-many-pending", section: 5,
            rule:
                "At most 1 refresh and 10 processing requests may be pending (tooManyPendingTaskRequests, -32001 with "
                + "data.scheduler); resubmitting a pending identifier replaces it. Needs the os/submit extension "
                + "(a direct scheduler call).",
            requires: ["os/submit"],
            infoPlist: plist(
                identifiers: [Kind.refresh.identifier, Kind.processing.identifier, "com.example.app.extra-refresh"]
                    + extraProcessing, modes: ["fetch", "processing"])
        ) { _ in
            let firstNine = extraProcessing.prefix(9)
            return [
                .send(
                    submit(1, Kind.refresh.identifier, .refresh, at: "100"),
                    submit(2, "com.example.app.extra-refresh", .refresh, at: "100"),
                    submit(3, Kind.refresh.identifier, .refresh, at: "200"),
                    expect: [
                        result(1, requestInfo(.refresh, at: "100")), schedulerError(2, "tooManyPendingTaskRequests"),
                        result(3, requestInfo(.refresh, at: "200")),
                    ]),
                .send(
                    "["
                        + ([submit("p", Kind.processing.identifier, .processing, at: "50")]
                        + firstNine.map { submit(.init(json: "\"\($0)\""), $0, .processing, at: "50") }).joined(
                            separator: ",") + "]",
                    expect: [
                        batch(
                            [result("p", requestInfo(.processing, at: "50"))]
                                + firstNine.map {
                                    result(.init(json: "\"\($0)\""), requestInfo(.processing, at: "50", identifier: $0))
                                })
                    ]),
                .send(
                    submit(4, extraProcessing[9], .processing, at: "50"),
                    submit(5, extraProcessing[0], .processing, at: "70"),
                    expect: [
                        schedulerError(4, "tooManyPendingTaskRequests"),
                        result(5, requestInfo(.processing, at: "70", identifier: extraProcessing[0])),
                    ]),
                .send(
                    request(6, "os/pendingTaskRequests"),
                    expect: [
                        pending(
                            6,
                            [requestInfo(.processing, at: "50"), requestInfo(.refresh, at: "200")]
                                + [requestInfo(.processing, at: "70", identifier: extraProcessing[0])]
                                + extraProcessing[1..<9].map { requestInfo(.processing, at: "50", identifier: $0) })
                    ]),
            ]
        },
        ConformanceCheck(
            "scheduler.os-submit.errors", section: 5,
            rule:
                "A direct submit that fails is -32001 with data.scheduler unavailable or notPermitted. Needs the "
                + "os/submit extension (a direct scheduler call).",
            requires: ["os/submit"]
        ) { _ in
            [
                .send(
                    request(1, "os/setConditions", #"{"backgroundRefreshStatus":"denied"}"#),
                    submit(2, Kind.refresh.identifier, .refresh, at: "10"),
                    request(3, "os/setConditions", #"{"backgroundRefreshStatus":"available"}"#),
                    submit(4, "com.example.app.unlisted", .refresh, at: "10"),
                    request(5, "os/pendingTaskRequests"),
                    expect: [
                        result(1, conditions(status: "denied")), schedulerError(2, "unavailable"),
                        result(3, conditions()), schedulerError(4, "notPermitted"), pending(5, []),
                    ])
            ]
        },
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
