import HostProtocol

/// The emulated `BGTaskScheduler.shared` of one app process, shaped like Apple's API.
///
/// Registrations belong to the process: a new process (a cold start) registers
/// again. Registration must happen before the app finishes launching and only once
/// per identifier (Apple makes both fatal; here they throw a clear error). Requests
/// go to the system's ``TaskRequestStore``, which outlives the process.
package final class BGTaskScheduler {
    /// A registration mistake (fatal in Apple's world).
    package struct RegistrationError: Error, CustomStringConvertible {
        package let description: String
        /// Which misuse it is, with Apple's message (nil for an error of the emulation's own).
        package var misuse: SchedulerMisuse?
        package init(description: String, misuse: SchedulerMisuse? = nil) {
            self.description = description
            self.misuse = misuse
        }
    }

    /// A registered launch handler.
    package struct Registration {
        package let identifier: String
        /// The kind the app expects (emulation-only: Apple infers it from the request).
        package let kind: TaskKind
        package let launchHandler: (BGTask) -> Void
    }

    /// Most requests of each kind that may be pending at once.
    package static let maxPendingRefresh = 1
    package static let maxPendingProcessing = 10

    package private(set) var registrations: [String: Registration] = [:]
    /// Set once the app has finished launching; registering afterwards is an error.
    package var launchFinished = false
    private let store: TaskRequestStore

    package init(store: TaskRequestStore) {
        self.store = store
    }

    /// `register(forTaskWithIdentifier:using:launchHandler:)`. Returns false when
    /// the Info.plist does not permit the identifier (as Apple's does).
    @discardableResult
    package func register(
        forTaskWithIdentifier identifier: String, kind: TaskKind, launchHandler: @escaping (BGTask) -> Void
    )
        throws(RegistrationError) -> Bool
    {
        guard !launchFinished else {
            throw RegistrationError(
                description:
                    "launch handler for \(identifier) registered after the app finished launching; all launch handlers "
                    + "must be registered before then",
                misuse: .late(identifier)
            )
        }
        guard registrations[identifier] == nil else {
            throw RegistrationError(
                description: "launch handler for \(identifier) has already been registered",
                misuse: .duplicate(identifier))
        }
        guard store.infoPlist.permittedIdentifiers.contains(identifier) else { return false }
        registrations[identifier] = Registration(identifier: identifier, kind: kind, launchHandler: launchHandler)
        return true
    }

    /// `submit(_:)` (see ``TaskRequestStore/submit(_:)``).
    package func submit(_ request: BGTaskRequest) throws(SchedulerErrorKind) {
        try store.submit(request)
    }

    /// `cancel(taskRequestWithIdentifier:)`.
    package func cancel(taskRequestWithIdentifier identifier: String) {
        store.cancel(taskRequestWithIdentifier: identifier)
    }

    /// `cancelAllTaskRequests()`.
    package func cancelAllTaskRequests() {
        for request in pendingTaskRequests { cancel(taskRequestWithIdentifier: request.identifier) }
    }

    /// `getPendingTaskRequests`: sorted by identifier.
    package var pendingTaskRequests: [BGTaskRequest] { store.pendingTaskRequests }

    /// The pending request for an identifier.
    package func pendingRequest(_ identifier: String) -> BGTaskRequest? { store.pendingRequest(identifier) }

    /// Removes a request because the OS launches it.
    package func takeForLaunch(_ identifier: String) -> BGTaskRequest? { store.takeForLaunch(identifier) }
}
