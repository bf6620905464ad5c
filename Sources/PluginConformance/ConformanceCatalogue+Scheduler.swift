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
    static let scheduler: [ConformanceCheck] = schedulerSubmitting + osControls

    /// The checks of section 5 for submitting requests.
    static let schedulerSubmitting: [ConformanceCheck] = [
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
            infoPlist: plist(
                identifiers: [Kind.refresh.identifier, Kind.processing.identifier], modes: ["processing"])
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
                        submitFailed(.refresh, "notPermitted"), submitFailed(.processing, "notPermitted"),
                        result(1),
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
                    startKeepalive(1), advance(2, "60"),
                    startKeepalive(3, #"{"iosEarliestRefreshBeginMinutes":1}"#),
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
                        result(1, requestInfo(.refresh, at: "100")),
                        schedulerError(2, "tooManyPendingTaskRequests"),
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
                                    result(
                                        .init(json: "\"\($0)\""), requestInfo(.processing, at: "50", identifier: $0)
                                    )
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
    ]
}
