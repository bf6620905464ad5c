import Foundation
import PluginHost

/// The real clock's wake-ups: a timer source armed for the engine's next due time.
final class WakeUpTimer: Sendable {
    private let queue = DispatchQueue(label: "in-process-plugin.clock")
    // Thread-safe: the source is configured before `resume`, then only scheduled and cancelled.
    private nonisolated(unsafe) let source: DispatchSourceTimer

    init() { source = DispatchSource.makeTimerSource(queue: queue) }

    /// Starts the timer, disarmed; `handler` runs on the timer's queue when it fires.
    func start(_ handler: @escaping @Sendable () -> Void) {
        source.setEventHandler(handler: handler)
        source.schedule(deadline: .distantFuture)
        source.resume()
    }

    /// Fires after `delay` nanoseconds; nil disarms it.
    func arm(afterNanoseconds delay: UInt64?) {
        guard let delay else {
            source.schedule(deadline: .distantFuture)
            return
        }
        source.schedule(deadline: .now() + .nanoseconds(Int(min(delay, UInt64(Int.max)))), leeway: .microseconds(100))
    }

    func stop() { source.cancel() }
}
