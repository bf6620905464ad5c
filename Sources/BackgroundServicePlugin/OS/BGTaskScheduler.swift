import HostProtocol

/// The emulated `BGTaskScheduler`, shaped like Apple's API.
///
/// Registration must happen before the app finishes launching and only once per
/// identifier (Apple makes both fatal; here they throw a clear error).
/// `submit(_:)` follows the documented rules: `unavailable` when background
/// refresh is denied or restricted, `notPermitted` when the Info.plist does not
/// list the identifier or lacks the kind's background mode,
/// `tooManyPendingTaskRequests` beyond 1 refresh or 10 processing requests;
/// resubmitting an identifier replaces its request.
final class BGTaskScheduler {
    /// A registration mistake (fatal in Apple's world).
    struct RegistrationError: Error, CustomStringConvertible {
        let description: String
    }

    /// A registered launch handler.
    struct Registration {
        let identifier: String
        /// The kind the app expects (emulation-only: Apple infers it from the request).
        let kind: TaskKind
        let launchHandler: (BGTask) -> Void
    }

    /// Most requests of each kind that may be pending at once.
    static let maxPendingRefresh = 1
    static let maxPendingProcessing = 10

    private(set) var registrations: [String: Registration] = [:]
    private var pending: [String: BGTaskRequest] = [:]
    /// Set once the app has finished launching; registering afterwards is an error.
    var launchFinished = false
    private let infoPlist: InfoPlist
    private let device: Device
    private let events: EventSink
    private let faults: FaultSet

    init(infoPlist: InfoPlist, device: Device, events: EventSink, faults: FaultSet) {
        self.faults = faults
        self.infoPlist = infoPlist
        self.device = device
        self.events = events
    }

    /// `register(forTaskWithIdentifier:using:launchHandler:)`. Returns false when
    /// the Info.plist does not permit the identifier (as Apple's does).
    @discardableResult
    func register(forTaskWithIdentifier identifier: String, kind: TaskKind, launchHandler: @escaping (BGTask) -> Void) throws(RegistrationError) -> Bool {
        guard !launchFinished else {
            throw RegistrationError(description: "launch handler for \(identifier) registered after the app finished launching; all launch handlers must be registered before then")
        }
        guard registrations[identifier] == nil else {
            throw RegistrationError(description: "launch handler for \(identifier) has already been registered")
        }
        guard infoPlist.permittedIdentifiers.contains(identifier) else { return false }
        registrations[identifier] = Registration(identifier: identifier, kind: kind, launchHandler: launchHandler)
        return true
    }

    /// `submit(_:)`. Reports `os/requestSubmitted` or `os/submitFailed`.
    func submit(_ request: BGTaskRequest) throws(SchedulerErrorKind) {
        if let failure = check(request) {
            events.send(SubmitFailedEvent.self, .init(identifier: request.identifier, error: failure))
            throw failure
        }
        pending[request.identifier] = request
        events.send(RequestSubmittedEvent.self, request.info)
    }

    private func check(_ request: BGTaskRequest) -> SchedulerErrorKind? {
        guard device.conditions.backgroundRefreshStatus == .available else { return .unavailable }
        let mode = request.kind == .refresh ? InfoPlist.refreshMode : InfoPlist.processingMode
        guard infoPlist.permittedIdentifiers.contains(request.identifier), infoPlist.backgroundModes.contains(mode) else {
            return .notPermitted
        }
        if pending[request.identifier] == nil, !faults.contains(.noPendingLimit) {
            let sameKind = pending.values.filter { $0.kind == request.kind }.count
            let limit = request.kind == .refresh ? BGTaskScheduler.maxPendingRefresh : BGTaskScheduler.maxPendingProcessing
            if sameKind >= limit { return .tooManyPendingTaskRequests }
        }
        return nil
    }

    /// `cancel(taskRequestWithIdentifier:)`. Reports `os/requestCancelled` when a request was pending.
    func cancel(taskRequestWithIdentifier identifier: String) {
        guard pending.removeValue(forKey: identifier) != nil else { return }
        events.send(RequestCancelledEvent.self, .init(identifier: identifier))
    }

    /// `cancelAllTaskRequests()`.
    func cancelAllTaskRequests() {
        for request in pendingTaskRequests { cancel(taskRequestWithIdentifier: request.identifier) }
    }

    /// `getPendingTaskRequests`: sorted by identifier (by UTF-8 bytes, like JSON keys).
    var pendingTaskRequests: [BGTaskRequest] {
        pending.values.sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }
    }

    /// The pending request for an identifier.
    func pendingRequest(_ identifier: String) -> BGTaskRequest? { pending[identifier] }

    /// Removes a request because the OS launches it (no event: the launch is reported instead).
    func takeForLaunch(_ identifier: String) -> BGTaskRequest? {
        pending.removeValue(forKey: identifier)
    }
}
