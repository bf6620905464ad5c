import Foundation
import HostProtocol
import PluginHost
import RustSide
import Synchronization

/// Forwards service events, log lines and notes to the simulation once it exists.
///
/// The targets are set after the sink is made (the simulation's init for notes,
/// `makeProcess` for a process's events and log, which runs on the plugin's reader
/// thread when a process starts there) and read on whatever thread an event comes
/// from: they live behind a lock, and each is called outside it.
final class ServiceEventSink: Sendable {
    private struct Targets {
        var event: (@Sendable (ServiceEvent) -> Void)?
        var log: (@Sendable (String) -> Void)?
        var note: (@Sendable (String) -> Void)?
    }

    private let targets = Mutex(Targets())

    /// Where service events go.
    var target: (@Sendable (ServiceEvent) -> Void)? {
        get { targets.withLock { $0.event } }
        set { targets.withLock { $0.event = newValue } }
    }

    /// Where log lines go.
    var logTarget: (@Sendable (String) -> Void)? {
        get { targets.withLock { $0.log } }
        set { targets.withLock { $0.log = newValue } }
    }

    /// Where notes go.
    var noteTarget: (@Sendable (String) -> Void)? {
        get { targets.withLock { $0.note } }
        set { targets.withLock { $0.note = newValue } }
    }

    func forward(_ event: ServiceEvent) { target?(event) }
    func log(_ line: String) { logTarget?(line) }
    func note(_ line: String) { noteTarget?(line) }
}
