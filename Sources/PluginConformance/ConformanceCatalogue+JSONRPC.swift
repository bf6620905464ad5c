import HostProtocol

/// Section 2: JSON-RPC 2.0.
extension ConformanceCatalogue {
    /// The checks of section 2, JSON-RPC.
    static let jsonRPC: [ConformanceCheck] = [
        ConformanceCheck(
            "jsonrpc.request.id-types", section: 2,
            rule: "Requests have an id that is a string, a number or null; the response carries the same id."
        ) { _ in
            [
                .send(
                    ping("a"), ping(7), ping(.null), ping(-3),
                    expect: [result("a"), result(7), result(.null), result(-3)])
            ]
        },
        ConformanceCheck(
            "jsonrpc.notification.never-answered", section: 2,
            rule:
                "Notifications (no id) are never answered, not even with an error (unknown method, bad params, array "
                + "params)."
        ) { _ in
            [
                .send(
                    notification("cancelCancelListener"), notification("no/such/method"),
                    notification("os/advanceTime", #"{"seconds":"soon"}"#), notification("cancelCancelListener", "[]"),
                    notification("os/launch", identifier(.refresh)), expect: [])
            ]
        },
        ConformanceCheck(
            "jsonrpc.notification.invokes-run", section: 2,
            rule: "The five invokes sent as notifications run as usual, their answers unwritten.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    notification("startKeepalive", #"{"iosEarliestRefreshBeginMinutes":1}"#),
                    expect: scheduleNext(refreshAt: "60", processingAt: "900")),
                .send(
                    launch(1, .refresh),
                    expect: [
                        launched(.refresh, at: "0"), timer("started", deadline: "28"),
                        launchResult(1, .refresh, at: "0"),
                    ]),
                .send(
                    notification("completeBgTask", #"{"success":false}"#),
                    expect: [completed(.refresh, success: false, at: "0")]
                        + scheduleNext(refreshAt: "60", processingAt: "900") + [timer("invalidated", deadline: "28")]),
            ]
        },
        ConformanceCheck(
            "jsonrpc.notification.waitForCancel-ignored", section: 2,
            rule:
                "waitForCancel sent as a notification is ignored (a notification cannot wait for an answer): the "
                + "pending one stays."
        ) { _ in
            [
                .send(request(1, "waitForCancel"), notification("waitForCancel"), expect: []),
                .send(request(2, "cancelCancelListener"), expect: [rejected(1, "listenerCancelled"), result(2)]),
            ]
        },
        ConformanceCheck(
            "jsonrpc.batch.empty", section: 2,
            rule: "An empty batch [] is answered with one -32600 error object (not an array), id null."
        ) { _ in [.send("[]", expect: [failure(.null, -32600)])] },
        ConformanceCheck(
            "jsonrpc.batch.only-notifications", section: 2,
            rule: "A batch of only notifications gets no reply at all (its members still run)."
        ) { _ in
            [
                .send(
                    "[" + notification("os/advanceTime", #"{"seconds":1}"#) + "," + notification("cancelCancelListener")
                        + "]", expect: []),
                .send(advance(1, "0"), expect: [now(1, "1")]),
            ]
        },
        ConformanceCheck(
            "jsonrpc.batch.mixed", section: 2,
            rule:
                "A batch is answered with one array of the responses, in request order; notifications in it get no "
                + "entry; invalid members get -32600, id null."
        ) { _ in
            [
                .send(
                    "["
                        + [
                            ping(1), notification("cancelCancelListener"), request(2, "no/such/method"), "42",
                            advance(3, "2"),
                        ].joined(separator: ",") + "]",
                    expect: [batch([result(1), failure(2, -32601), failure(.null, -32600), now(3, "2")])])
            ]
        },
        ConformanceCheck(
            "jsonrpc.batch.in-order", section: 2,
            rule: "The members of a batch are processed in order and the reply lists them in request order."
        ) { _ in
            [
                .send(
                    "["
                        + [
                            advance("a", "1"), advance("b", "1.5"), advance("c", "0"),
                            request("d", "os/pendingTaskRequests"),
                        ].joined(separator: ",") + "]",
                    expect: [batch([now("a", "1"), now("b", "2.5"), now("c", "2.5"), pending("d", [])])])
            ]
        },
        ConformanceCheck(
            "jsonrpc.batch.waitForCancel-held-back", section: 2,
            rule:
                "A waitForCancel inside a batch holds the batch reply back until it is answered; the reply then lists "
                + "every member."
        ) { _ in
            [
                .send("[" + request(1, "waitForCancel") + "," + advance(2, "0") + "]", expect: []),
                .send(ping(3), expect: [batch([rejected(1, "listenerCancelled"), now(2, "0")]), result(3)]),
            ]
        },
        ConformanceCheck(
            "jsonrpc.batch.events-before-reply", section: 2,
            rule: "Events caused by a batch member are written as they happen, before the batch reply.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    "[" + startKeepalive(1) + "," + ping(2) + "]",
                    expect: scheduleNext(refreshAt: "900") + [batch([result(1), result(2)])])
            ]
        },
        ConformanceCheck(
            "jsonrpc.params.array", section: 2,
            rule: "params given as an array (positional) are refused with -32602, and nothing happens."
        ) { _ in
            [
                .send(request(1, "waitForCancel"), expect: []),
                .send(
                    request(2, "cancelCancelListener", "[]"), request(3, "os/advanceTime", "[5]"),
                    request(4, "startKeepalive", "[]"),
                    expect: [failure(2, -32602), failure(3, -32602), failure(4, -32602)]),
                .send(request(5, "os/pendingTaskRequests"), advance(6, "0"), expect: [pending(5, []), now(6, "0")]),
                .send(ping(7), expect: [rejected(1, "listenerCancelled"), result(7)]),
            ]
        },
        ConformanceCheck(
            "jsonrpc.params.not-object", section: 2,
            rule:
                "params of any type other than object or array is -32600 (the reply carries the request's id, or null)."
        ) { _ in
            [
                .send(
                    request(1, "cancelCancelListener", "5"), request(2, "cancelCancelListener", #""x""#),
                    request(3, "cancelCancelListener", "true"),
                    request(4, "cancelCancelListener", "null"),
                    expect: [invalidRequest(1), invalidRequest(2), invalidRequest(3), invalidRequest(4)])
            ]
        },
        ConformanceCheck(
            "jsonrpc.params.unknown-members-ignored", section: 2,
            rule: "Unknown members inside params are ignored."
        ) { p in
            [
                .send(
                    request(1, "os/advanceTime", #"{"seconds":1,"extra":{"x":[1]}}"#),
                    request(2, "cancelCancelListener", #"{"reason":"none"}"#),
                    request(3, "startKeepalive", #"{"unknownOption":true,"iosSafetyTimeoutSecs":20}"#), state(4),
                    expect: [
                        now(1, "1"), result(2), result(3),
                        ConformanceState.with(p) {
                            $0.now = "1"
                            $0.safetyTimeout = "20"
                            $0.pendingRequests = [
                                requestInfo(.processing, at: "901"), requestInfo(.refresh, at: "901"),
                            ]
                        }.reply(4),
                    ])
            ]
        },
        ConformanceCheck(
            "jsonrpc.duplicate-pending-id", section: 2,
            rule:
                "A request whose id equals the id of a request still pending gets -32600 and leaves the pending one "
                + "untouched."
        ) { p in
            [
                .send(request(1, "waitForCancel"), expect: []),
                .send(advance(1, "5"), expect: [invalidRequest(1)]),
                .send(state(2), expect: [ConformanceState.with(p) { $0.pendingCancelInvoke = "1" }.reply(2)]),
                .send(ping(3), expect: [rejected(1, "listenerCancelled"), result(3)]),
            ]
        },
        ConformanceCheck(
            "jsonrpc.duplicate-id.after-answer", section: 2,
            rule: "An id may be used again once its request has been answered."
        ) { _ in
            [
                .send(ping(1), ping(1), expect: [result(1), result(1)]),
                .send(request(1, "waitForCancel"), ping(1), expect: [invalidRequest(1)]),
            ]
        },
        ConformanceCheck(
            "jsonrpc.invalid-request.not-object", section: 2,
            rule: "A message that is not a request object is answered with -32600, id null."
        ) { _ in
            [
                .send(
                    ping(1), "42", #""plugin/state""#, "null",
                    expect: [result(1), failure(.null, -32600), failure(.null, -32600), failure(.null, -32600)])
            ]
        },
        ConformanceCheck(
            "jsonrpc.invalid-request.bad-jsonrpc", section: 2,
            rule: "A message whose jsonrpc member is missing or not \"2.0\" is answered with -32600."
        ) { _ in
            [
                .send(
                    #"{"jsonrpc":"1.0","method":"cancelCancelListener"}"#, #"{"method":"cancelCancelListener"}"#,
                    #"{"jsonrpc":2.0,"method":"cancelCancelListener"}"#,
                    #"{"jsonrpc":"1.0","id":5,"method":"cancelCancelListener"}"#,
                    expect: [failure(.null, -32600), failure(.null, -32600), failure(.null, -32600), invalidRequest(5)])
            ]
        },
        ConformanceCheck(
            "jsonrpc.invalid-request.method-not-string", section: 2,
            rule: "A message whose method is not a string is answered with -32600."
        ) { _ in
            [
                .send(
                    #"{"jsonrpc":"2.0","method":5}"#, #"{"jsonrpc":"2.0","method":null}"#,
                    #"{"jsonrpc":"2.0","id":6,"method":7}"#,
                    expect: [failure(.null, -32600), failure(.null, -32600), invalidRequest(6)])
            ]
        },
        ConformanceCheck(
            "jsonrpc.invalid-request.id-type", section: 2,
            rule: "An id that is an object, an array or a boolean is not a request: -32600, id null."
        ) { _ in
            [
                .send(
                    #"{"jsonrpc":"2.0","id":{"n":1},"method":"cancelCancelListener"}"#,
                    #"{"jsonrpc":"2.0","id":[1],"method":"cancelCancelListener"}"#,
                    #"{"jsonrpc":"2.0","id":true,"method":"cancelCancelListener"}"#,
                    expect: [failure(.null, -32600), failure(.null, -32600), failure(.null, -32600)])
            ]
        },
        ConformanceCheck(
            "jsonrpc.method-not-found", section: 2,
            rule: "An unknown method is answered with -32601 (method names are case-sensitive)."
        ) { _ in
            [
                .send(
                    request(1, "no/such/method"), request(2, "StartKeepalive"),
                    request(3, "os/launch ", identifier(.refresh)),
                    expect: [failure(1, -32601), failure(2, -32601), failure(3, -32601)])
            ]
        },
        ConformanceCheck(
            "jsonrpc.invalid-params", section: 2,
            rule: "Params of the wrong shape or type for the method are answered with -32602."
        ) { _ in
            [
                .send(
                    request(1, "os/advanceTime", #"{"seconds":"1"}"#), request(2, "os/advanceTime"),
                    request(3, "os/launch", "{}"),
                    request(4, "os/launch", #"{"identifier":7}"#),
                    request(5, "os/setConditions", #"{"autoLaunch":"yes"}"#),
                    request(6, "os/expire", #"{"identifier":null}"#),
                    expect: [
                        failure(1, -32602), failure(2, -32602), failure(3, -32602), failure(4, -32602),
                        failure(5, -32602), failure(6, -32602),
                    ])
            ]
        },
    ]
}
