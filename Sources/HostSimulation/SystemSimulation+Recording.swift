import Foundation
import HostProtocol
import PluginHost
import RustSide
import Synchronization

/// Recording what happens into the timeline.
extension SystemSimulation {
    func tapped(_ event: ConnectionEvent) {
        defer {
            switch event {
            case .receivedResponse, .receivedNotification, .receivedOther: checkHeld()
            default: break
            }
        }
        switch event {
        case .sentRequest(let r):
            shared.withLock { s in
                // A call held for a batch has its origin recorded when it was held.
                let origin = s.origins[r.id] ?? s.origin
                s.origins[r.id] = origin
                // Only the host's own calls are waited for between jobs; the driver's calls block it.
                // (When the plugin hops to main, a call from a caller on the main thread, and any
                // call made while one waits, may wait as long as main is blocked: for ever, until
                // the watchdog ends the process.)
                let fromMain = s.hopsToMain && r.params?[InvokeMarker.mainThreadCaller]?.boolValue == true
                if origin == .rust, fromMain { s.mainCallers.insert(r.id) }
                if origin == .rust, r.method != WaitForCancel.name, !fromMain, s.mainCallers.isEmpty {
                    s.inFlight[r.id] = r.method
                }
                if origin == .rust { s.callOwner[r.id] = s.processes.count }
                // A time step's own request is stamped when it is sent; what it causes, when it happens.
                let time = r.method == OSAdvanceTime.name ? clock.now : max(s.stamp, clock.now)
                s.timeline.append(TimelineEntry(time: time, kind: .request(r, origin)))
            }
        case .receivedResponse(let r):
            shared.withLock { s in
                s.mainCallers.remove(r.id)
                let origin = s.origins[r.id] ?? .rust
                s.timeline.append(TimelineEntry(time: max(s.stamp, clock.now), kind: .response(r, origin)))
            }
        case .receivedNotification(let n):
            shared.withLock { s in
                s.timeline.append(TimelineEntry(time: max(s.stamp, clock.now), kind: .event(n)))
                s.followTasks(n)
            }
            lifecycle(n)
        case .settled:
            break
        case .stderr(let line):
            let kept = shared.withLock { s in
                guard s.stderrKept + line.utf8.count <= plugin.limits.maxStderrBytes else {
                    s.stderrDropped.lines += 1
                    s.stderrDropped.bytes += line.utf8.count
                    return false
                }
                s.stderrKept += line.utf8.count
                return true
            }
            if kept { append(.stderr(line)) }
        case .closed, .protocolError:
            condition.lock()
            condition.broadcast()
            condition.unlock()
            if case .protocolError(let why) = event { append(.protocolError(why)) }
        case .receivedOther(let batch):
            // A batch's reply (--dispatch tauri): each response in it, in order.
            let responses = (batch.arrayValue ?? []).compactMap { member -> Response? in
                if case .response(let r) = Message.classify(member) { return r }
                return nil
            }
            shared.withLock { s in
                for r in responses {
                    let origin = s.origins[r.id] ?? .rust
                    s.timeline.append(TimelineEntry(time: max(s.stamp, clock.now), kind: .response(r, origin)))
                }
            }
        case .sentNotification:
            break
        }
    }

    func append(_ kind: TimelineEntry.Kind) {
        shared.withLock { $0.timeline.append(TimelineEntry(time: max($0.stamp, clock.now), kind: kind)) }
    }

    /// Stops a plugin whose output has filled the timeline past ``PeerLimits/maxHeldFrames``
    /// entries or ``PeerLimits/maxHeldBytes`` of frames: every call fails with
    /// ``HostError/Code/flooding`` from then on. Checked after each frame the tap records.
    func checkHeld() {
        let limits = plugin.limits
        let count = shared.withLock { $0.timeline.count }
        let bytes = plugin.relay.bytesRead
        guard count > limits.maxHeldFrames || bytes > limits.maxHeldBytes else { return }
        plugin.connection.core.stop(
            flooding: "\(OutputMeter.count(count)) timeline entries from \(OutputMeter.size(bytes)) of frames (limit "
                + "\(OutputMeter.count(limits.maxHeldFrames)) entries or \(OutputMeter.size(limits.maxHeldBytes)))")
    }

    /// Plugin stderr lines past ``PeerLimits/maxStderrBytes``: counted, not kept.
    public var stderrNotKept: (lines: Int, bytes: Int) { shared.withLock { $0.stderrDropped } }

    /// Stamps what follows with `time` (during a plugin time step).
    func stampTimeline(_ time: VirtualTime) {
        shared.withLock { $0.stamp = time }
    }
}

/// Forwards connection events to the simulation attached to the plugin, if any
/// (a completion with nobody to hand it to runs at once).
final class TapRelay: Sendable {
    private struct Targets {
        var tap: (@Sendable (ConnectionEvent) -> Void)?
        var handoff: (@Sendable (RequestID, @escaping @Sendable () -> Void) -> Void)?
    }

    private let targets = Mutex(Targets())
    /// Bytes of the frames read since the simulation attached: what its timeline holds.
    private let bytes = Atomic<Int>(0)

    func attach(
        tap: @escaping @Sendable (ConnectionEvent) -> Void,
        handoff: @escaping @Sendable (RequestID, @escaping @Sendable () -> Void) -> Void
    ) {
        targets.withLock { $0 = Targets(tap: tap, handoff: handoff) }
        bytes.store(0, ordering: .relaxed)
    }

    /// Counts a frame read (before the tap sees it).
    func frameRead(_ n: Int) { bytes.add(n, ordering: .relaxed) }

    /// Bytes of the frames read since the last ``attach(tap:handoff:)``.
    var bytesRead: Int { bytes.load(ordering: .relaxed) }

    func detach() { targets.withLock { $0 = Targets() } }

    func forward(_ event: ConnectionEvent) { targets.withLock { $0.tap }?(event) }

    func handoff(_ id: RequestID, _ completion: @escaping @Sendable () -> Void) {
        if let handoff = targets.withLock({ $0.handoff }) { handoff(id, completion) } else { completion() }
    }
}
