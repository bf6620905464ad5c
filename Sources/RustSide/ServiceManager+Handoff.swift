/// A freed blocking-pool thread runs the queued closure at once (``Race/handoffVsStop``;
/// issue 27 item 2).
///
/// tokio's blocking pool hands a thread that finishes its task straight to the oldest
/// queued closure, on the same OS thread (`blocking/pool.rs` 506-514). When the answer that
/// freed the thread also wakes a cancel listener that then sends `Stop` (an earlier run's
/// orphan resolved by the safety timer: "D3 resolved"), the queued `waitForCancel` of the
/// run being stopped and that `Stop` race; on the real runtime the closure wrote first in
/// 36 of 40 runs, and its invoke was rejected `stopped` by the `stopKeepalive` that followed.
extension ServiceManager {
    /// Before `Stop` cancels the current run: when that run's `waitForCancel` closure has
    /// just been handed a thread and has not written yet, waits for its turn in
    /// ``Race/handoffVsStop`` (the `stop` side); returns the run it raced for (to be
    /// passed once `stopKeepalive` is written), or nil when there was nothing to race.
    func raceHandoff() async -> UInt64? {
        let g = generation
        guard token != nil, handedOff.withLock({ $0.contains(g) }), let races = configuration.races else {
            return nil
        }
        await races.arrive(.handoffVsStop, .second, run: g)
        return g
    }
}
