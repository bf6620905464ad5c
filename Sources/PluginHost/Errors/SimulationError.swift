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
            case host(HostError)
        }

        /// The kinds of ``SimulationError``.
        public typealias Code = FailureCode<SimulationError>

        private let backing: Backing

        private init(_ backing: Backing) { self.backing = backing }

        /// The plugin left these requests unanswered beyond the answer timeout.
        public static func hung(_ methods: [String]) -> SimulationError { SimulationError(.hung(methods)) }
        /// A call failed.
        public static func host(_ error: HostError) -> SimulationError { SimulationError(.host(error)) }

        /// What kind of failure this is.
        public var code: Code {
            switch backing {
            case .hung: .hung
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

        public var description: String {
            switch backing {
            case .hung(let methods): "the plugin did not answer \(methods.joined(separator: ", ")) in time"
            case .host(let e): e.description
            }
        }
    }
}

extension FailureCode where Failure == SystemSimulation.SimulationError {
    /// The plugin left requests unanswered beyond the answer timeout.
    public static var hung: Self { Self("hung") }
    /// A call failed.
    public static var host: Self { Self("host") }
}
