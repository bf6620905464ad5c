import HostProtocol
import PluginHost

extension PluginDriver {
    /// Why a script could not be run to its end: a struct with a ``code``, so that a
    /// new kind is not a source break for clients. Every kind is the plugin failing
    /// (it could not be started, or it broke the transport), never a finding of its
    /// rules: the fuzzers stop and report it (`docs/fuzzing.md`, "When the plugin fails").
    ///
    /// ```swift
    /// catch let e where e.code == .hung { print(e) }
    /// ```
    public struct DriverError: Error, Sendable, Hashable, CustomStringConvertible {
        private enum Backing: Sendable, Hashable {
            case notStarted(String)
            case closed(ExitStatus?, leftover: Int)
            case hung(received: Int, seconds: Double, exited: ExitStatus?, reading: Bool)
            case timeUp(received: Int, exited: ExitStatus?)
            case flooding(String)
            case junk(String)
            case outsideStep(String)
            case noReset(String)
            case answeredTwice(String)
            case unknownID(String)
            case io(String)
        }

        /// The kinds of ``DriverError``.
        public typealias Code = FailureCode<DriverError>

        private let backing: Backing
        /// The last lines of the plugin's stderr when it failed (``StderrTail``).
        public private(set) var stderr: [String] = []

        private init(_ backing: Backing) { self.backing = backing }

        /// The plugin could not be started: spawning failed, or it ended before writing anything.
        public static func notStarted(_ why: String) -> DriverError { DriverError(.notStarted(why)) }
        /// The plugin's output ended (it exited, status known, or closed its output) in
        /// the middle of the run; `leftover`: bytes of a frame it cut off.
        public static func closed(_ status: ExitStatus?, leftover: Int = 0) -> DriverError {
            DriverError(.closed(status, leftover: leftover))
        }
        /// No answer to the script's barrier within `seconds`, after `received` frames;
        /// `exited`: the plugin had exited while something it started held its output open;
        /// `reading`: the plugin did not even read the script within that time.
        public static func hung(
            received: Int, seconds: Double, exited: ExitStatus? = nil, reading: Bool = false
        ) -> DriverError {
            DriverError(.hung(received: received, seconds: seconds, exited: exited, reading: reading))
        }
        /// The run's time (``FuzzDeadline``) ran out while the plugin had not answered.
        public static func timeUp(received: Int, exited: ExitStatus? = nil) -> DriverError {
            DriverError(.timeUp(received: received, exited: exited))
        }
        /// The plugin wrote more than the driver holds (``PeerLimits``); `figures` says how much.
        public static func flooding(_ figures: String) -> DriverError { DriverError(.flooding(figures)) }
        /// The plugin wrote what is not a frame: a line that is not JSON, or one over the frame limit.
        public static func junk(_ what: String) -> DriverError { DriverError(.junk(what)) }
        /// The plugin wrote when no step was running: between scripts, or before a case's
        /// `plugin/reset` answer (what it wrote, shortened).
        public static func outsideStep(_ what: String) -> DriverError { DriverError(.outsideStep(what)) }
        /// The plugin did not reset for a case: no answer to `plugin/reset` in the case's
        /// replies, or an error (what it wrote).
        public static func noReset(_ what: String) -> DriverError { DriverError(.noReset(what)) }
        /// The plugin answered a request (its id, as JSON) more often than it was sent.
        public static func answeredTwice(_ id: String) -> DriverError { DriverError(.answeredTwice(id)) }
        /// The plugin answered an id that was never sent (`what`: the id as JSON, and why it matters).
        public static func unknownID(_ what: String) -> DriverError { DriverError(.unknownID(what)) }
        /// The plugin could not be written to while it ran.
        public static func io(_ why: String) -> DriverError { DriverError(.io(why)) }

        /// The same error with the plugin's last stderr lines.
        func with(stderr lines: [String]) -> DriverError {
            var e = self
            e.stderr = lines
            return e
        }

        /// What kind of failure this is.
        public var code: Code {
            switch backing {
            case .notStarted: .notStarted
            case .closed: .closed
            case .hung: .hung
            case .timeUp: .timeUp
            case .flooding: .flooding
            case .junk: .junk
            case .outsideStep: .outsideStep
            case .noReset: .noReset
            case .answeredTwice: .answeredTwice
            case .unknownID: .unknownID
            case .io: .io
            }
        }

        /// For ``Code/closed``: how the plugin ended, when known.
        public var exitStatus: ExitStatus? {
            if case .closed(let status, _) = backing { status } else { nil }
        }

        /// The failure in words.
        public var description: String {
            switch backing {
            case .notStarted(let why): "the plugin did not start: \(why)"
            case .closed(let s, let leftover):
                (s.map { "the plugin \($0) in the middle of the run" }
                    ?? "the plugin closed its output in the middle of the run")
                    + (leftover > 0 ? ", cutting a frame off after \(OutputMeter.size(leftover))" : "")
            case .hung(_, let seconds, let exited, true):
                "the plugin did not read the case's requests within \(Self.seconds(seconds)) (--timeout, or the run's"
                    + " time)" + Self.held(exited)
            case .hung(let n, let seconds, let exited, false):
                "the plugin did not answer the case's closing request (\(OSPendingTaskRequests.name)) within "
                    + "\(Self.seconds(seconds)) (--timeout); it wrote \(OutputMeter.count(n)) frames of the case"
                    + " before it" + Self.held(exited)
            case .timeUp(let n, let exited):
                "the plugin had not answered the case in progress when the run's time (--time, plus "
                    + "\(Self.seconds(FuzzDeadline.grace)) for a case in progress) ran out; it wrote "
                    + "\(OutputMeter.count(n)) frames of the case" + Self.held(exited)
            case .flooding(let figures): "the plugin flooded the host: \(figures)"
            case .junk(let what): "the plugin wrote what is not a frame: \(what)"
            case .outsideStep(let what): "the plugin wrote outside a step: \(what)"
            case .noReset(let what): "the plugin did not reset for a case (plugin/reset): \(what)"
            case .answeredTwice(let id): "the plugin answered request \(id) more often than it was sent"
            case .unknownID(let what): "the plugin answered id \(what)"
            case .io(let why): why
            }
        }

        private static func seconds(_ s: Double) -> String {
            s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
        }

        private static func held(_ exited: ExitStatus?) -> String {
            exited.map { " (the plugin \($0), but something it started kept its output open)" } ?? ""
        }
    }
}

extension FailureCode where Failure == PluginDriver.DriverError {
    /// The plugin could not be started, or ended before writing anything.
    public static var notStarted: Self { Self("notStarted") }
    /// The plugin's output ended in the middle of the run (it exited or crashed).
    public static var closed: Self { Self("closed") }
    /// No barrier answer within the time limit.
    public static var hung: Self { Self("hung") }
    /// The run's time ran out with a case in progress.
    public static var timeUp: Self { Self("timeUp") }
    /// The plugin wrote more than the driver holds.
    public static var flooding: Self { Self("flooding") }
    /// The plugin wrote what is not a frame.
    public static var junk: Self { Self("junk") }
    /// The plugin wrote when no step was running.
    public static var outsideStep: Self { Self("outsideStep") }
    /// The plugin did not reset for a case.
    public static var noReset: Self { Self("noReset") }
    /// The plugin answered a request twice.
    public static var answeredTwice: Self { Self("answeredTwice") }
    /// The plugin answered an id never sent.
    public static var unknownID: Self { Self("unknownID") }
    /// The plugin could not be written to.
    public static var io: Self { Self("io") }
}
