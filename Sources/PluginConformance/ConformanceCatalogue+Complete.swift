import HostProtocol

/// Section 3, continued: `completeBgTask` and its profile rules.
extension ConformanceCatalogue {
    /// The checks of section 3 for `completeBgTask`.
    static let invokesCompleting: [ConformanceCheck] = [
        ConformanceCheck(
            "invoke.completeBgTask.rejects-pending-before-resolving", section: 3,
            rule: "completeBgTask rejects the pending cancel invoke with reason completed, then resolves itself."
        ) { _ in
            [
                .send(request(1, "waitForCancel"), expect: []),
                .send(
                    request(2, "completeBgTask", #"{"success":true}"#),
                    expect: [rejected(1, "completed"), result(2)]),
            ]
        },
        ConformanceCheck(
            "invoke.completeBgTask.order", section: 3,
            rule:
                "completeBgTask with a task active: complete it with success; reject the pending cancel invoke "
                + "(completed); schedule-next; clean up (invalidate the safety timer); resolve.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1, #"{"iosSafetyTimeoutSecs":20}"#), request(2, "waitForCancel"),
                    launch(3, .refresh), advance(4, "5"),
                    expect: scheduleNext(refreshAt: "900") + [
                        result(1), launched(.refresh, at: "0"), timer("started", deadline: "20"),
                        launchResult(3, .refresh, at: "0"), now(4, "5"),
                    ]),
                .send(
                    request(5, "completeBgTask", #"{"success":true}"#),
                    expect: [completed(.refresh, success: true, at: "5"), rejected(2, "completed")]
                        + scheduleNext(refreshAt: "905") + [timer("invalidated", deadline: "20"), result(5)]),
            ]
        },
        ConformanceCheck(
            "invoke.completeBgTask.no-task-no-reschedule", section: 3,
            rule:
                "completeBgTask with no task active does not reschedule: it only rejects the pending cancel invoke and "
                + "resolves.",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), request(2, "waitForCancel"), advance(3, "10"),
                    expect: scheduleNext(refreshAt: "900") + [result(1), now(3, "10")]),
                .send(request(4, "completeBgTask"), expect: [rejected(2, "completed"), result(4)]),
                .send(
                    request(5, "os/pendingTaskRequests"),
                    expect: [pending(5, [requestInfo(.processing, at: "900"), requestInfo(.refresh, at: "900")])]),
            ]
        },
        ConformanceCheck(
            "invoke.completeBgTask.success-false", section: 3,
            rule: "completeBgTask {success: false} completes the active task with false.", flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), launch(2, .processing),
                    expect: startedAndLaunched(.processing)),
                .send(
                    request(3, "completeBgTask", #"{"success":false}"#),
                    expect: [completed(.processing, success: false, at: "0")] + scheduleNext(refreshAt: "900") + [
                        result(3)
                    ]),
            ]
        },
        ConformanceCheck(
            "invoke.completeBgTask.success-default", section: 3,
            rule: "success-default: completeBgTask without success completes the task with true (both profiles).",
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), launch(2, .refresh),
                    expect: startedAndLaunched(.refresh)),
                .send(
                    request(3, "completeBgTask"),
                    expect: [completed(.refresh, success: true, at: "0")] + scheduleNext(refreshAt: "900") + [
                        timer("invalidated", deadline: "28"), result(3),
                    ]),
                .send(
                    launch(4, .processing),
                    expect: [launched(.processing, at: "0"), launchResult(4, .processing, at: "0")]),
                .send(
                    request(5, "completeBgTask", "{}"),
                    expect: [completed(.processing, success: true, at: "0")] + scheduleNext(refreshAt: "900") + [
                        result(5)
                    ]),
            ]
        },
        ConformanceCheck(
            "profile.seed.success-not-bool-is-true", section: 3,
            rule: "success-default (seed): a success that is not a bool means true.", profiles: [.seed],
            flags: ["--events"]
        ) { _ in
            [
                .send(
                    startKeepalive(1), launch(2, .processing),
                    expect: startedAndLaunched(.processing)),
                .send(
                    request(3, "completeBgTask", #"{"success":"no"}"#),
                    expect: [completed(.processing, success: true, at: "0")] + scheduleNext(refreshAt: "900") + [
                        result(3)
                    ]),
            ]
        },
        ConformanceCheck(
            "profile.strict.success-not-bool-rejected", section: 3,
            rule: "success-default (strict): a success that is not a bool is -32602 and the task stays active.",
            profiles: [.strict]
        ) { p in
            [
                .send(
                    startKeepalive(1), launch(2, .refresh), request(3, "waitForCancel"),
                    expect: [result(1), launchResult(2, .refresh, at: "0")]),
                .send(
                    request(4, "completeBgTask", #"{"success":"no"}"#), state(5),
                    expect: [
                        failure(4, -32602),
                        ConformanceState.with(p) {
                            $0.activeTask = ConformanceState.active(.refresh, at: "0")
                            $0.pendingCancelInvoke = "3"
                            $0.safetyTimer = "28"
                            $0.pendingRequests = [requestInfo(.processing, at: "900")]
                            $0.launched = 1
                        }.reply(5),
                    ]),
            ]
        },
    ]
}
