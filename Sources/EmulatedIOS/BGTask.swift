import HostProtocol

/// The emulated `BGTask`: what a launch handler receives.
///
/// `setTaskCompleted(success:)` goes to the ``CompletionLedger``, which lets the
/// first call through and reports any later one as an `exactly-once` violation.
package class BGTask {
    package let identifier: String
    package let launchedAt: VirtualTime
    /// Unique per launch, for the ledger.
    package let serial: UInt64
    /// Set by the app; run by `os/expire`.
    package var expirationHandler: (() -> Void)?
    /// True once the expiration handler has been run.
    package var hasExpired = false
    private let ledger: CompletionLedger

    package init(identifier: String, launchedAt: VirtualTime, serial: UInt64, ledger: CompletionLedger) {
        self.identifier = identifier
        self.launchedAt = launchedAt
        self.serial = serial
        self.ledger = ledger
    }

    package var kind: TaskKind { .refresh }

    /// Tells the system the work is done.
    package func setTaskCompleted(success: Bool) {
        ledger.complete(self, success: success)
    }
}

/// The emulated `BGAppRefreshTask`.
package final class BGAppRefreshTask: BGTask {}

/// The emulated `BGProcessingTask`.
package final class BGProcessingTask: BGTask {
    package override var kind: TaskKind { .processing }
}
