import Foundation
import HostProtocol
import PluginHost
import RustSide
import Synchronization

/// An OS event and a host invoke at one instant, under the plugin's `--dispatch tauri`.
///
/// On an iPhone the OS's handlers run on the main queue while Tauri runs invokes on its
/// `ipc` queue, so an expiration, a timer's firing or a launch can happen while the Rust
/// side's invoke runs. The simulation makes that happen: the OS control is held back and
/// goes out with the host's next invoke as one JSON-RPC batch (`SimulationConnection+Holding`),
/// whose members the plugin runs on its two queues at once. Which queue runs each next
/// statement is the race ``Race/ipcVsMain``: the orders are drawn from the ``RacePlan``
/// before the batch, installed with `plugin/dispatchSchedule`, and the ones the plugin took
/// are recorded (one record per decision), so that a trace replays them and shrinking can
/// turn them back to `ipc-first` one at a time.
extension SystemSimulation {
    /// Orders drawn before a batch (a two-member batch takes about 20 decisions).
    static let ordersPerBatch = 48
    /// `ipc` choices installed after them, so that the plugin's PRNG never decides.
    static let ipcPadding = 256

    /// Runs `body` (which makes the host write requests) with the OS control `method`
    /// held back until the host writes the request it `meets`: the two reach the plugin as
    /// one batch. If the host writes no such request, the control goes out alone after
    /// `body`. Returns the control's answer, or nil when it has not come (the batch's reply
    /// waits for a `waitForCancel` in it). Under `--dispatch serial` the batch runs its
    /// members in order: the control, then the invoke.
    public func together(
        _ method: String, params: JSONValue?, meeting meets: HeldCall.Meets,
        during body: () throws(SimulationError) -> Void
    ) throws(SimulationError) -> Result<JSONValue, HostError>? {
        let drawn = races.draw(.ipcVsMain, count: Self.ordersPerBatch)
        let choices = drawn.map { $0 == .first ? DispatchQueueName.ipc : .main }
        _ = try schedule(choices: choices + Array(repeating: .ipc, count: Self.ipcPadding))
        let answer = Mutex<Result<JSONValue, HostError>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let connection = plugin.connection
        shared.withLock { $0.origin = .os }
        let id = connection.hold(method: method, params: params, meeting: meets) { result in
            answer.withLock { $0 = result }
            answered.signal()
        }
        shared.withLock { s in
            s.origins[id] = .os
            s.origin = .rust
        }
        try body()
        if connection.releaseHeld() {
            // No request met it: it went out alone, after everything `body` did.
            let limit = DispatchTime.now() + .seconds(Int(options.answerTimeout.components.seconds) + 1)
            if answered.wait(timeout: limit) == .timedOut {
                throw .hung(["\(method) sent alone"])
            }
            try runUntilIdle()
        }
        let report = try schedule(choices: [])
        let taken = report.taken.map { $0 == .ipc ? Race.Side.first : .second }
        _ = races.settle(.ipcVsMain, drawn: drawn, taken: taken)
        if !taken.isEmpty {
            note("race ipc-vs-main, \(taken.count) decisions: " + report.taken.map(\.rawValue).joined(separator: ","))
        }
        let result = answer.withLock { $0 }
        if method == OSAdvanceTime.name, case .success(let raw)? = result,
            let now = try? OSAdvanceTime.Result(json: raw).now
        {
            pluginNow = now
        }
        return result
    }
}
