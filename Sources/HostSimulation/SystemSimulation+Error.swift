import PluginHost

extension SystemSimulation {
    /// Why a simulation step failed: a struct with a ``code``, so that a new kind
    /// is not a source break for clients.
    ///
    /// ```swift
    /// catch let e where e.code == .hung { print("unanswered: \(e.unanswered)") }
    /// ```
    public struct SimulationError: Error, Sendable, Hashable, CustomStringConvertible {
        private enum Backing: Sendable, Hashable {
            case hung([String])
            case hostTaskStuck
            case runaway(steps: Int)
            case host(HostError)
        }

        /// The kinds of ``SimulationError``.
        public typealias Code = FailureCode<SimulationError>

        private let backing: Backing

        private init(_ backing: Backing) { self.backing = backing }

        /// The plugin left these requests unanswered beyond the answer timeout.
        public static func hung(_ methods: [String]) -> SimulationError { SimulationError(.hung(methods)) }
        /// A host task (``SystemSimulation/hostValue(_:)``) had not finished when the
        /// system was idle: it waits for something no job or answer will bring.
        public static var hostTaskStuck: SimulationError { SimulationError(.hostTaskStuck) }
        /// Time did not move on: ``SystemSimulation/advance(by:)`` took more than `steps`
        /// steps at one time (the two sides keep waking each other at one instant).
        public static func runaway(steps: Int) -> SimulationError { SimulationError(.runaway(steps: steps)) }
        /// A call failed.
        public static func host(_ error: HostError) -> SimulationError { SimulationError(.host(error)) }

        /// What kind of failure this is.
        public var code: Code {
            switch backing {
            case .hung: .hung
            case .hostTaskStuck: .hostTaskStuck
            case .runaway: .runaway
            case .host: .host
            }
        }

        /// For ``Code/hung``: what was left unanswered.
        public var unanswered: [String] {
            if case .hung(let methods) = backing { methods } else { [] }
        }

        /// For ``Code/host``: the call's error.
        public var hostError: HostError? {
            if case .host(let e) = backing { e } else { nil }
        }

        /// The failure in words.
        public var description: String {
            switch backing {
            case .hung(let methods): "the plugin did not answer \(methods.joined(separator: ", ")) in time"
            case .hostTaskStuck: "a host task did not finish: it waits for something no job or answer brings"
            case .runaway(let steps): "advance: more than \(steps) steps at one time"
            case .host(let e): e.description
            }
        }
    }
}

extension FailureCode where Failure == SystemSimulation.SimulationError {
    /// The plugin left requests unanswered beyond the answer timeout.
    public static var hung: Self { Self("hung") }
    /// A host task had not finished when the system was idle.
    public static var hostTaskStuck: Self { Self("hostTaskStuck") }
    /// Time did not move on: too many steps at one instant.
    public static var runaway: Self { Self("runaway") }
    /// A call failed.
    public static var host: Self { Self("host") }
}
