/// An init failure's late callback against a newer run's listener
/// (``Race/listenerVsLateCompletion``; issue 27 item 4).
///
/// When `initialize` fails, manager.rs clears the token and state first (416-427) and calls
/// the callback, `completeBgTask(false)`, after (429-431), with no `.await` between that an
/// app command could not land in on the multi-threaded runtime. A `start` in that window
/// starts a newer run; its listener's `waitForCancel` (a blocking-pool thread) and the old
/// run's late `completeBgTask` then reach the plugin in either order. Verified on the real
/// runtime (`../shared/rusthost/`, RECIPE 5 (c)): the late completion can reject the newer
/// run's invoke (`completed`), leaving that run without a listener.
extension ServiceManager {
    /// After run `g`'s init-failure window: when a newer run has started meanwhile, waits for
    /// the late completion's turn against that run's listener (the `late-completion` side);
    /// returns the newer run (to be passed once the completion is written), or nil.
    func raceNewerListener(after g: UInt64) async -> UInt64? {
        let newer = generation
        guard newer > g, token != nil, let races = configuration.races else { return nil }
        await races.arrive(.listenerVsLateCompletion, .second, run: newer)
        return newer
    }
}
