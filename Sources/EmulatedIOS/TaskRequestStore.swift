import HostProtocol

/// The system's side of `BGTaskScheduler`: the pending requests, which outlive the
/// app's process (iOS keeps them across a termination), and `submit`'s rules.
///
/// `submit(_:)` follows the documented rules: `unavailable` when background refresh
/// is denied or restricted, `notPermitted` when the Info.plist does not list the
/// identifier or lacks the kind's background mode, `tooManyPendingTaskRequests`
/// beyond 1 refresh or 10 processing requests; resubmitting an identifier replaces
/// its request. Each process reaches it through its own ``BGTaskScheduler``.
package final class TaskRequestStore {
    private var pending: [String: BGTaskRequest] = [:]
    package let infoPlist: InfoPlist
    private let device: Device
    private let events: EventSink
    private let faults: OSFaults
    /// Told of each accepted request (the `--os ios` policy plans its launch here).
    package var didAccept: ((BGTaskRequest) -> Void)?
    /// `--os simulator`: every submission fails with `unavailable` (``SimulatorPolicy``).
    package var simulatorRefusesSubmissions = false

    package init(infoPlist: InfoPlist, device: Device, events: EventSink, faults: OSFaults) {
        self.infoPlist = infoPlist
        self.device = device
        self.events = events
        self.faults = faults
    }

    /// `submit(_:)`. Reports `os/requestSubmitted` or `os/submitFailed`.
    package func submit(_ request: BGTaskRequest) throws(SchedulerErrorKind) {
        if let failure = check(request) {
            events.send(SubmitFailedEvent.self, .init(identifier: request.identifier, error: failure))
            throw failure
        }
        pending[request.identifier] = request
        didAccept?(request)
        events.send(RequestSubmittedEvent.self, request.info)
    }

    private func check(_ request: BGTaskRequest) -> SchedulerErrorKind? {
        if simulatorRefusesSubmissions { return .unavailable }
        guard device.conditions.backgroundRefreshStatus == .available else { return .unavailable }
        let mode = request.kind == .refresh ? InfoPlist.refreshMode : InfoPlist.processingMode
        guard infoPlist.permittedIdentifiers.contains(request.identifier), infoPlist.backgroundModes.contains(mode)
        else {
            return .notPermitted
        }
        if pending[request.identifier] == nil, !faults.contains(.noPendingLimit) {
            let sameKind = pending.values.filter { $0.kind == request.kind }.count
            let limit =
                request.kind == .refresh
                ? BGTaskScheduler.maxPendingRefresh : BGTaskScheduler.maxPendingProcessing
            if sameKind >= limit { return .tooManyPendingTaskRequests }
        }
        return nil
    }

    /// `cancel(taskRequestWithIdentifier:)`. Reports `os/requestCancelled` when a request was pending.
    package func cancel(taskRequestWithIdentifier identifier: String) {
        guard pending.removeValue(forKey: identifier) != nil else { return }
        events.send(RequestCancelledEvent.self, .init(identifier: identifier))
    }

    /// The pending requests, sorted by identifier (by UTF-8 bytes, like JSON keys).
    package var pendingTaskRequests: [BGTaskRequest] {
        pending.values.sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }
    }

    /// The pending request for an identifier.
    package func pendingRequest(_ identifier: String) -> BGTaskRequest? { pending[identifier] }

    /// `--os simulator`'s `os/launch`: a request placed for the debugger's launch (no event).
    package func placeForSimulatedLaunch(_ request: BGTaskRequest) {
        pending[request.identifier] = request
    }

    /// Removes a request because the OS launches it (no event: the launch is reported instead).
    package func takeForLaunch(_ identifier: String) -> BGTaskRequest? {
        pending.removeValue(forKey: identifier)
    }
}
