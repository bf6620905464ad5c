import HostProtocol

/// A sample service for demos and fuzzing: a "sync" that takes a number of
/// seconds of (host clock) time, then succeeds or fails.
///
/// ```swift
/// let manager = ServiceManager(client: client, factory: { SyncService(runSeconds: 20) })
/// ```
public struct SyncService: BackgroundService {
    /// How the run ends when it is not cancelled.
    public enum Outcome: String, Sendable, CaseIterable {
        /// The run returns normally, or throws ``Failure``.
        case success, failure
    }

    /// What the run does when cancelled.
    public enum CancelBehaviour: String, Sendable, CaseIterable {
        /// Returns normally (a Rust service that returns `Ok` on cancel): success.
        case returnNormally
        /// Throws (a service that propagates the cancellation): failure.
        case throwError
        /// Does not notice: works until its time is up, then returns (a service
        /// that never checks its token; cancellation is cooperative).
        case ignore
    }

    /// Time spent in `initialize`.
    public var initSeconds: Double
    /// Whether `initialize` fails.
    public var initFails: Bool
    /// Time spent in `run` (0: returns at once, without suspending).
    public var runSeconds: Double
    /// How the run ends.
    public var outcome: Outcome
    /// What it does when cancelled.
    public var onCancel: CancelBehaviour

    /// Creates a service.
    public init(
        initSeconds: Double = 0, initFails: Bool = false, runSeconds: Double, outcome: Outcome = .success,
        onCancel: CancelBehaviour = .throwError
    ) {
        self.initSeconds = initSeconds
        self.initFails = initFails
        self.runSeconds = runSeconds
        self.outcome = outcome
        self.onCancel = onCancel
    }

    /// An error the sample service reports.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, in words.
        public let description: String
    }

    /// Sleeps `initSeconds` of host-clock time, then fails if `initFails`.
    public func initialize(_ context: ServiceContext) async throws {
        if initSeconds > 0 { try await context.sleep(seconds: initSeconds) }
        if initFails { throw Failure(description: "sync could not initialize") }
    }

    /// Sleeps `runSeconds`, then ends with `outcome`; when cancelled, does what `onCancel` says.
    public func run(_ context: ServiceContext) async throws {
        if onCancel == .ignore {
            if runSeconds > 0 {
                try await context.clock.sleepIgnoringCancellation(until: context.clock.now.adding(seconds: runSeconds))
            }
            if outcome == .failure { throw Failure(description: "sync failed") }
            return
        }
        if runSeconds > 0 {
            do {
                try await context.sleep(seconds: runSeconds)
            } catch {
                if onCancel == .returnNormally { return }
                throw error
            }
        }
        if outcome == .failure { throw Failure(description: "sync failed") }
    }
}
