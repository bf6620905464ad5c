import HostProtocol

/// The misuses of `BGTaskScheduler` that are an uncaught `NSInternalInconsistencyException`
/// on a device, with Apple's own message text and where that text was seen.
///
/// Apple's `register(forTaskWithIdentifier:using:launchHandler:)` documentation says that
/// registering after the app finishes launching, or twice for one identifier, "throws an
/// exception", and that a launch of a task with no registered handler fails the same way; it
/// does not give the words. The words below are the exception reasons of crash reports:
///
/// - ``late(_:)``: `All launch handlers must be registered before application finishes
///   launching` (shinyorg/shiny issue 280; transistorsoft/flutter_background_fetch issue 414).
/// - ``duplicate(_:)``: `Launch handler for task with identifier X has already been registered`
///   (transistorsoft/transistor-background-fetch issue 14; fluttercommunity/flutter_workmanager
///   issue 427).
/// - ``noHandler(_:)``: `No launch handler registered for task with identifier X`
///   (wordpress-mobile/WordPress-iOS issue 18156).
///
/// Whether the process ends (`os/appTerminated` reason `crash`) or lives on with an
/// `os/violation` is the `--os ios` policy's `crashOnMisuse` (`EmulatedOS+Crash.swift`).
package enum SchedulerMisuse: Hashable, Sendable {
    /// A launch handler registered after `didFinishLaunching` returned.
    case late(String)
    /// A second registration of one identifier in one process.
    case duplicate(String)
    /// A launch of a request whose identifier has no launch handler in the process.
    case noHandler(String)

    /// The uncaught exception's name: the same for all three.
    package static let exception = "NSInternalInconsistencyException"

    /// The identifier involved.
    package var identifier: String {
        switch self {
        case .late(let id), .duplicate(let id), .noHandler(let id): id
        }
    }

    /// The exception's reason, in Apple's words.
    package var message: String {
        switch self {
        case .late: "All launch handlers must be registered before application finishes launching"
        case .duplicate(let id): "Launch handler for task with identifier \(id) has already been registered"
        case .noHandler(let id): "No launch handler registered for task with identifier \(id)"
        }
    }

    /// The rule's name in `os/violation` and `docs/rules.md`.
    package var rule: String {
        switch self {
        case .late: "ios.register-before-launch-end"
        case .duplicate: "ios.register-once"
        case .noHandler: "ios.launch-has-handler"
        }
    }
}
