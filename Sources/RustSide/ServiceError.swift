import PluginHost

/// Errors of the service manager's `start` and `stop`: a struct with a ``code``,
/// so that a new kind is not a source break for clients.
///
/// ```swift
/// do {
///     try await manager.start(config)
/// } catch where error.code == .alreadyRunning {
///     // a service runs already
/// }
/// ```
public struct ServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Backing: Sendable, Hashable {
        case alreadyRunning
        case notRunning
        case keepaliveFailed(HostError)
        case invalidForegroundServiceType(String)
    }

    /// The kinds of ``ServiceError``.
    public typealias Code = FailureCode<ServiceError>

    private let backing: Backing

    private init(_ backing: Backing) { self.backing = backing }

    /// `start` while a service runs.
    public static let alreadyRunning = ServiceError(.alreadyRunning)
    /// `stop` while nothing runs.
    public static let notRunning = ServiceError(.notRunning)
    /// `startKeepalive` failed; the start was rolled back.
    public static func keepaliveFailed(_ error: HostError) -> ServiceError { ServiceError(.keepaliveFailed(error)) }
    /// The start's `foregroundServiceType` is not one of ``ForegroundServiceType/allowed``:
    /// refused before anything changed and before any plugin call.
    public static func invalidForegroundServiceType(_ type: String) -> ServiceError {
        ServiceError(.invalidForegroundServiceType(type))
    }

    /// What kind of failure this is.
    public var code: Code {
        switch backing {
        case .alreadyRunning: .alreadyRunning
        case .notRunning: .notRunning
        case .keepaliveFailed: .keepaliveFailed
        case .invalidForegroundServiceType: .invalidForegroundServiceType
        }
    }

    /// For ``Code/keepaliveFailed``: why `startKeepalive` failed.
    public var hostError: HostError? {
        if case .keepaliveFailed(let e) = backing { e } else { nil }
    }

    /// The failure in words (`already running`, `not running`, ...).
    public var description: String {
        switch backing {
        case .alreadyRunning: "already running"
        case .notRunning: "not running"
        case .keepaliveFailed(let e): "startKeepalive failed: \(e.description)"
        case .invalidForegroundServiceType(let t):
            "invalid foregroundServiceType \"\(t)\" (valid: \(ForegroundServiceType.allowed.joined(separator: ", ")))"
        }
    }
}

extension FailureCode where Failure == ServiceError {
    /// `start` while a service runs.
    public static var alreadyRunning: Self { Self("alreadyRunning") }
    /// `stop` while nothing runs.
    public static var notRunning: Self { Self("notRunning") }
    /// `startKeepalive` failed; the start was rolled back.
    public static var keepaliveFailed: Self { Self("keepaliveFailed") }
    /// The start's `foregroundServiceType` is not an Android foreground service type.
    public static var invalidForegroundServiceType: Self { Self("invalidForegroundServiceType") }
}
