import HostProtocol

/// Numbers written either way (issue 27, item 5): Rust's serde_json writes an `f64`
/// as `28.0`, `1e16`, `1e-7`, `9500000000000000.0` or `-0.0`, where Swift writes
/// `28`, `1e+16`, `1e-07`, `9.5e+15` or `0`. RFC 8259 § 6 gives both texts one value,
/// so every numeric member must read the value, whatever the text; the host may be
/// either. (The suite itself compares the plugin's numbers by value, so a plugin may
/// write either form too.)
extension ConformanceCatalogue {
    /// The checks of numbers written in serde_json's form and in Swift's.
    static let numbers: [ConformanceCheck] = [
        ConformanceCheck(
            "numbers.request-id.either-form", section: 2,
            rule:
                "A numeric id is answered with the same number whatever its text: an exponent with or without its "
                + "sign and leading zeros (1e16, 1e+16, 1e-7, 1e-07), a whole number with its .0 "
                + "(9500000000000000.0), a negative zero (-0.0)."
        ) { _ in
            [
                .send(
                    ping(ID(json: "1e16")), ping(ID(json: "1e+16")), ping(ID(json: "9500000000000000.0")),
                    ping(ID(json: "9.5e+15")), ping(ID(json: "-0.0")), ping(ID(json: "1e-07")),
                    expect: [
                        result(ID(json: "1e16")), result(ID(json: "1e+16")),
                        result(ID(json: "9500000000000000.0")), result(ID(json: "9.5e+15")),
                        result(ID(json: "-0.0")), result(ID(json: "1e-07")),
                    ])
            ]
        },
        ConformanceCheck(
            "numbers.startKeepalive.either-form", section: 3,
            rule:
                "startKeepalive's numbers mean their value whatever their text: serde_json's (9500.0, 1e-7, -0.0, "
                + "1e3) and Swift's (2.5e+1, 1e-06, 1.5e+1, 1e+02) are each read as the number they write: the "
                + "requests submitted, the stored config and the safety timer's deadline say so.",
            flags: ["--events"]
        ) { p in
            [
                .send(
                    startKeepalive(
                        1,
                        #"{"iosSafetyTimeoutSecs":9500.0,"iosProcessingSafetyTimeoutSecs":1e3,"#
                            + #""iosEarliestRefreshBeginMinutes":1e-7,"iosEarliestProcessingBeginMinutes":-0.0}"#),
                    state(2),
                    expect: scheduleNext(refreshAt: "0.000006", processingAt: "0") + [
                        result(1),
                        ConformanceState.with(p) {
                            $0.safetyTimeout = "9500"
                            $0.processingTimeout = "1000"
                            $0.refreshMinutes = "0.0000001"
                            $0.processingMinutes = "0"
                            $0.pendingRequests = [
                                requestInfo(.processing, at: "0"), requestInfo(.refresh, at: "0.000006"),
                            ]
                        }.reply(2),
                    ]),
                .send(
                    startKeepalive(
                        3,
                        #"{"iosSafetyTimeoutSecs":2.5e+1,"iosProcessingSafetyTimeoutSecs":1e+02,"#
                            + #""iosEarliestRefreshBeginMinutes":1e-06,"iosEarliestProcessingBeginMinutes":1.5e+1}"#),
                    state(4), launch(5, .refresh),
                    expect: scheduleNext(refreshAt: "0.00006", processingAt: "900") + [
                        result(3),
                        ConformanceState.with(p) {
                            $0.safetyTimeout = "25"
                            $0.processingTimeout = "100"
                            $0.refreshMinutes = "0.000001"
                            $0.processingMinutes = "15"
                            $0.pendingRequests = [
                                requestInfo(.processing, at: "900"), requestInfo(.refresh, at: "0.00006"),
                            ]
                        }.reply(4),
                        launched(.refresh, at: "0"), timer("started", deadline: "25"),
                        launchResult(5, .refresh, at: "0"),
                    ]),
            ]
        },
        ConformanceCheck(
            "numbers.advanceTime.either-form", section: 5,
            rule:
                "os/advanceTime's seconds mean their value whatever their text: 1e-7 and 1e-07, 2.5e-6 and 2.5e-06, "
                + "9500.0 and 9.5e+3, 1E1; -0.0 is 0 (not negative), so the clock does not move."
        ) { _ in
            [
                .send(
                    advance(1, "1e-7"), advance(2, "1e-07"), advance(3, "2.5e-6"), advance(4, "2.5e-06"),
                    advance(5, "9500.0"), advance(6, "9.5e+3"), advance(7, "-0.0"), advance(8, "1E1"),
                    expect: [
                        now(1, "0.0000001"), now(2, "0.0000002"), now(3, "0.0000027"), now(4, "0.0000052"),
                        now(5, "9500.0000052"), now(6, "19000.0000052"), now(7, "19000.0000052"),
                        now(8, "19010.0000052"),
                    ])
            ]
        },
    ]
}
