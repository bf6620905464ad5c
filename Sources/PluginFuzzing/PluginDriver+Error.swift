import PluginHost

extension PluginDriver {
    /// Why a script could not be run to its end: a struct with a ``code``, so that a
    /// new kind is not a source break for clients.
    ///
    /// ```swift
    /// catch let e where e.code == .hung { print(e) }
    /// ```
    public struct DriverError: Error, Sendable, Hashable, CustomStringConvertible {
        private enum Backing: Sendable, Hashable {
            case closed(ExitStatus?)
            case hung(received: Int)
            case io(String)
        }

        /// The kinds of ``DriverError``.
        public typealias Code = FailureCode<DriverError>

        private let backing: Backing

        private init(_ backing: Backing) { self.backing = backing }

        /// The plugin's output ended: it exited (status known) or closed its output.
        public static func closed(_ status: ExitStatus?) -> DriverError { DriverError(.closed(status)) }
        /// No barrier answer within the time limit, after this many frames.
        public static func hung(received: Int) -> DriverError { DriverError(.hung(received: received)) }
        /// The plugin could not be started or written to.
        public static func io(_ why: String) -> DriverError { DriverError(.io(why)) }

        /// What kind of failure this is.
        public var code: Code {
            switch backing {
            case .closed: .closed
            case .hung: .hung
            case .io: .io
            }
        }

        /// For ``Code/closed``: how the plugin ended, when known.
        public var exitStatus: ExitStatus? {
            if case .closed(let status) = backing { status } else { nil }
        }

        /// The failure in words.
        public var description: String {
            switch backing {
            case .closed(let s?): "the plugin \(s)"
            case .closed(nil): "the plugin closed its output"
            case .hung(let n): "the plugin stopped answering (\(n) frames received, no barrier reply)"
            case .io(let why): why
            }
        }
    }
}

extension FailureCode where Failure == PluginDriver.DriverError {
    /// The plugin's output ended (it exited or crashed).
    public static var closed: Self { Self("closed") }
    /// No barrier answer within the time limit.
    public static var hung: Self { Self("hung") }
    /// The plugin could not be started or written to.
    public static var io: Self { Self("io") }
}
