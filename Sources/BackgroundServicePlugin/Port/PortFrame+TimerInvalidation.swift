import EmulatedIOS
import HostProtocol

extension PortFrame {
    /// `cleanup()`'s `safetyTimer?.invalidate()`, sent from the queue running now.
    ///
    /// The seed schedules its safety timer from a launch handler, on the main run loop, and
    /// `cleanup()` invalidates it from whatever queue calls it: from `ipc` in `completeBgTask`
    /// and `stopKeepalive` (seed lines 181, 231, 287). Apple's `Timer.invalidate()`: "You must
    /// send this message from the thread on which the timer was installed. If you send this
    /// message from another thread, the input source associated with the timer may not be
    /// removed from its run loop". Under `--dispatch tauri`, sent from `ipc`, whether the timer
    /// is removed is a choice of the dispatch schedule (``Dispatcher/timerInvalidation()``,
    /// default `removed`); under `serial`, or on main, it always is. Read when the step runs.
    func invalidateSafetyTimer() {
        guard let timer = plugin.safetyTimer, timer.isValid else { return }
        timer.invalidateOffThread(plugin.dispatcher.timerInvalidation())
    }
}
