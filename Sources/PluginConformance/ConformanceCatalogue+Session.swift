import HostProtocol

/// Section 5, session methods: `initialize`, `plugin/state`, `plugin/reset`, `shutdown`.
extension ConformanceCatalogue {
    /// The `initialize` result for the default flags.
    static func initializeResult(_ id: ID, _ profile: Profile, bundle: String = bundleID) -> Pattern {
        result(
            id,
            #"{"bundleIdentifier":"\#(bundle)","clock":"virtual","profile":"\#(profile.rawValue)","#
                + #""protocolVersion":"1","serverInfo":{"name":"*","version":"*"},"#
                + #""taskIdentifiers":{"processing":"\#(bundle).bg-processing","refresh":"\#(bundle).bg-refresh"}}"#
        )
    }

    /// `initialize` asking for events (or not).
    static func initialize(_ id: ID, events: Bool) -> String {
        request(id, "initialize", #"{"capabilities":{"events":\#(events)}}"#)
    }

    /// The checks of section 5: session methods.
    static let session: [ConformanceCheck] = [
        ConformanceCheck(
            "session.initialize.result", section: 5,
            rule:
                "initialize answers {protocolVersion: \"1\", serverInfo: {name, version}, bundleIdentifier, "
                + "taskIdentifiers: {refresh, processing}, clock, profile}."
        ) { p in [.send(initialize(1, events: false), expect: [initializeResult(1, p)])] },
        ConformanceCheck(
            "session.initialize.bundle-id", section: 5,
            rule: "initialize reports --bundle-id and the task identifiers derived from it.",
            flags: ["--bundle-id", "org.example.demo"]
        ) { p in [.send(request(1, "initialize"), expect: [initializeResult(1, p, bundle: "org.example.demo")])] },
        ConformanceCheck(
            "session.plugin-state.initial", section: 5,
            rule:
                "plugin/state of a fresh plugin: now 0, virtual clock, the profile, no task, no pending invoke, no "
                + "timer, default config, nothing pending, both registered, default conditions, zero counters."
        ) { p in [.send(state(1), expect: [ConformanceState(profile: p).reply(1)])] },
        ConformanceCheck(
            "session.plugin-state.snapshot", section: 5,
            rule:
                "plugin/state reports now, activeTask {identifier, kind, launchedAt}, pendingCancelInvoke (the pending "
                + "request's id), safetyTimer {deadline}, config, pendingRequests, conditions and counters."
        ) { p in
            [
                .send(
                    startKeepalive(1, #"{"iosSafetyTimeoutSecs":20,"iosRequiresNetworkConnectivity":true}"#),
                    advance(2, "7"), request("w", "waitForCancel"), launch(3, .refresh),
                    setConditions(4, #"{"externalPower":true}"#), state(5),
                    expect: [
                        result(1), now(2, "7"), launchResult(3, .refresh, at: "7"), result(4, conditions(power: true)),
                        ConformanceState.with(p) {
                            $0.now = "7"
                            $0.activeTask = ConformanceState.active(.refresh, at: "7")
                            $0.pendingCancelInvoke = #""w""#
                            $0.safetyTimer = "27"
                            $0.safetyTimeout = "20"
                            $0.networkConnectivity = true
                            $0.pendingRequests = [requestInfo(.processing, at: "900", network: true)]
                            $0.conditions = conditions(power: true)
                            $0.launched = 1
                        }.reply(5),
                    ])
            ]
        },
        ConformanceCheck(
            "session.plugin-reset.really-resets", section: 5,
            rule:
                "plugin/reset first rejects a pending waitForCancel (reset), then puts plugin and OS back as freshly "
                + "started: config, requests, task, timer, conditions, counters, clock 0."
        ) { p in
            [
                .send(
                    startKeepalive(
                        1,
                        #"{"iosSafetyTimeoutSecs":20,"iosProcessingSafetyTimeoutSecs":30,"#
                            + #""iosEarliestRefreshBeginMinutes":1,"iosEarliestProcessingBeginMinutes":2,"#
                            + #""iosRequiresExternalPower":true,"iosRequiresNetworkConnectivity":true}"#
                    ),
                    advance(2, "50"), launch(3, .refresh), request(4, "os/expire", identifier(.refresh)),
                    launch(5, .processing), request(7, "waitForCancel"),
                    setConditions(
                        6,
                        #"{"autoLaunch":true,"externalPower":true,"networkConnected":false,"#
                            + #""backgroundRefreshStatus":"restricted"}"#
                    ),
                    expect: [
                        result(1), now(2, "50"), launchResult(3, .refresh, at: "50"), result(4),
                        launchResult(5, .processing, at: "50"),
                        result(6, conditions(autoLaunch: true, status: "restricted", power: true, network: false)),
                    ]),
                .send(request(8, "plugin/reset"), expect: [rejected(7, "reset"), result(8)]),
                .send(state(9), expect: [ConformanceState(profile: p).reply(9)]),
                .send(
                    startKeepalive(10), launch(11, .refresh), advance(12, "28"), state(13),
                    expect: [
                        result(10), launchResult(11, .refresh, at: "0"), now(12, "28"),
                        ConformanceState.with(p) {
                            $0.now = "28"
                            $0.pendingRequests = [
                                requestInfo(.processing, at: "928"), requestInfo(.refresh, at: "928"),
                            ]
                            $0.launched = 1
                            $0.completed = 1
                        }.reply(13),
                    ]),
            ]
        },
        ConformanceCheck(
            "session.plugin-reset.keeps-session", section: 5,
            rule:
                "plugin/reset keeps the session: events asked for by initialize stay on, and stay off when they were "
                + "off."
        ) { p in
            [
                .send(
                    startKeepalive(1), request(2, "plugin/reset"), startKeepalive(3),
                    expect: [result(1), result(2), result(3)]),
                .send(
                    initialize(4, events: true), request(5, "plugin/reset"), startKeepalive(6),
                    expect: [initializeResult(4, p), result(5)] + scheduleNext(refreshAt: "900") + [result(6)]),
            ]
        },
        ConformanceCheck(
            "session.plugin-reset.keeps-flags", section: 5,
            rule: "plugin/reset rebuilds the plugin with the same flags (bundle id, profile).",
            flags: ["--bundle-id", "org.example.demo"]
        ) { p in
            [
                .send(
                    startKeepalive(1), request(2, "plugin/reset"), state(3),
                    expect: [
                        result(1), result(2),
                        ConformanceState.with(p) {
                            $0.registered = ConformanceState.registrations(bundle: "org.example.demo")
                        }.reply(3),
                    ])
            ]
        },
        ConformanceCheck(
            "session.shutdown.rejects-pending", section: 5,
            rule: "shutdown rejects a pending waitForCancel (reason shutdown), resolves, then the plugin exits 0."
        ) { _ in
            [
                .send(request(1, "waitForCancel"), expect: []),
                .exit(
                    [.json(request(2, "shutdown"))], closeStdin: false, expect: [rejected(1, "shutdown"), result(2)]),
            ]
        },
        ConformanceCheck(
            "session.discover.document", section: 5,
            rule:
                "rpc.discover (the OpenRPC convention) answers with an OpenRPC document (openrpc, info {title, "
                + "version}, methods) that describes every method and event of the contract. Needs the "
                + "rpc.discover extension.",
            requires: [RPCDiscover.name]
        ) { _ in
            let named = (MethodRegistry.methods.filter { !$0.isExtension }.map(\.name) + MethodRegistry.events)
                .map { Pattern(json: #"{"name":"\#($0)"}"#) }
            let document = Pattern(json: #"{"info":{"title":"*","version":"*"},"openrpc":"*"}"#)
                .replacing("methods", with: .includes(named))
            return [
                .send(
                    request(1, RPCDiscover.name), request(2, RPCDiscover.name, "{}"),
                    expect: [result(1, document), result(2, document)])
            ]
        },
        ConformanceCheck(
            "session.shutdown.exits", section: 5,
            rule: "shutdown resolves with null, then the plugin exits 0 without waiting for the end of input."
        ) { _ in [.exit([.json(request(1, "shutdown"))], closeStdin: false, expect: [result(1)])] },
    ]
}
