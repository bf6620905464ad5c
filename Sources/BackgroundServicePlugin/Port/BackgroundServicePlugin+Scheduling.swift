import EmulatedIOS
import HostProtocol

/// The seed's `scheduleNext`, which only reads the plugin's state.
extension BackgroundServicePlugin {
    // MARK: - Task Identifiers (the seed's `let`s, derived from `bundleIdentifier`)

    /// The refresh task's identifier: `<bundle id>.bg-refresh`.
    var refreshTaskId: String { "\(bundleIdentifier).bg-refresh" }
    /// The processing task's identifier: `<bundle id>.bg-processing`.
    var processingTaskId: String { "\(bundleIdentifier).bg-processing" }

    // MARK: - Scheduling

    // Port: `logger.error` is a line on stderr (and the scheduler sends `os/submitFailed`).
    var scheduleNext: Step<PortFrame> {
        call("scheduleNext()") {
            // BGAppRefreshTask — runs opportunistically, ~30s budget
            step("let refreshReq = BGAppRefreshTaskRequest(identifier: refreshTaskId)") {
                $0.refreshReq = BGAppRefreshTaskRequest(identifier: $0.refreshTaskId)
            }
            // Port: `Date(timeIntervalSinceNow:)` reads the injected clock.
            step("refreshReq.earliestBeginDate = Date(timeIntervalSinceNow: earliestRefreshBeginMinutes * 60)") { f in
                f.refreshReq?.earliestBeginDate = f.clock.now.adding(seconds: f.earliestRefreshBeginMinutes * 60)
            }
            step("try BGTaskScheduler.shared.submit(refreshReq)") { f in
                do throws(SchedulerErrorKind) {
                    try f.scheduler.submit(f.refreshReq!)
                } catch {
                    f.events.log("Failed to submit BGAppRefreshTask '\(f.refreshTaskId)': \(error.rawValue)")
                }
            }
            // BGProcessingTask — runs when device idle, minutes budget
            step("let processingReq = BGProcessingTaskRequest(identifier: processingTaskId)") {
                $0.processingReq = BGProcessingTaskRequest(identifier: $0.processingTaskId)
            }
            step("processingReq.earliestBeginDate = Date(timeIntervalSinceNow: earliestProcessingBeginMinutes * 60)") {
                let f = $0
                f.processingReq?.earliestBeginDate = f.clock.now.adding(seconds: f.earliestProcessingBeginMinutes * 60)
            }
            step("processingReq.requiresExternalPower = requiresExternalPower") {
                $0.processingReq?.requiresExternalPower = $0.requiresExternalPower
            }
            step("processingReq.requiresNetworkConnectivity = requiresNetworkConnectivity") {
                $0.processingReq?.requiresNetworkConnectivity = $0.requiresNetworkConnectivity
            }
            step("try BGTaskScheduler.shared.submit(processingReq)") { f in
                do throws(SchedulerErrorKind) {
                    try f.scheduler.submit(f.processingReq!)
                } catch {
                    f.events.log("Failed to submit BGProcessingTask '\(f.processingTaskId)': \(error.rawValue)")
                }
            }
        }
    }
}

/// How the seed's methods read their invoke's arguments.
extension PortFrame {
    /// `let success = invoke.args(as: [String: Bool].self)?["success"] ?? true`, into `success`.
    ///
    /// Port: the seed decodes the whole args as `[String: Bool]`, so any other non-boolean
    /// member would also make it `true`; the contract reads `success` alone (unknown members
    /// are ignored). Under `strict` a non-boolean rejects the invoke (-32602) and the method
    /// ends: returns false. `fallback` is the seed's `?? true` (a mutant changes it).
    func readSuccess(fallback: Bool = true) -> Bool {
        guard let invoke else { return false }
        switch plugin.profile {
        case .seed:
            let params =
                CompleteBgTask.Params.common(invoke.args) ?? (try? CompleteBgTask.Params.lenient(invoke.args))?.0
            success = params?.success ?? fallback
        case .strict:
            do throws(JSONDecodingError) {
                var params = CompleteBgTask.Params.common(invoke.args)
                if params == nil { params = try CompleteBgTask.Params(json: invoke.args) }
                success = params?.success ?? fallback
            } catch {
                invoke.reject(.invalidParams(error.description))
                return false
            }
        }
        return true
    }

    /// `if let args = invoke.args(as: [String: Any].self)` with each field's `as? Double` / `as? Bool`,
    /// into `args`.
    ///
    /// Port: under `seed` a wrong-typed field (JSON `null` included) is ignored, as the seed's
    /// casts do; under `strict` it rejects the invoke (-32602), nothing changes and the method
    /// ends (returns false); `iosProcessingSafetyTimeoutSecs: null` clears the processing timer.
    /// A JSON `true` is not a number here, although an `NSNumber` cast would accept it.
    func readArgs() -> Bool {
        guard let invoke else { return false }
        switch plugin.profile {
        case .seed:
            args = (try? StartKeepalive.Params.lenient(invoke.args))?.0 ?? StartKeepalive.Params()
        case .strict:
            do {
                args = try StartKeepalive.Params(json: invoke.args)
            } catch {
                invoke.reject(.invalidParams(error.description))
                return false
            }
        }
        return true
    }
}
