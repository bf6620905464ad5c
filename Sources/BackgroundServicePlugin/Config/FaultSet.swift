import EmulatedIOS

/// The faults switched on for this process.
public struct FaultSet: Sendable, Equatable {
    private let faults: Set<Fault>

    /// No faults.
    public static let none = FaultSet(faults: [])

    init(faults: Set<Fault>) {
        self.faults = faults
    }

    /// Reads `BSP_FAULT`; throws the unknown name.
    public static func parse(_ value: String?) throws(UnknownFault) -> FaultSet {
        guard let value, !value.isEmpty else { return .none }
        var set: Set<Fault> = []
        for name in value.split(separator: ",").map({ $0.trimmingCharactersInSet() }) where !name.isEmpty {
            guard let fault = Fault(rawValue: name) else { throw UnknownFault(name: name) }
            set.insert(fault)
        }
        return FaultSet(faults: set)
    }

    /// An unknown `BSP_FAULT` name.
    public struct UnknownFault: Error, CustomStringConvertible {
        /// The name given.
        public let name: String
        public var description: String {
            "unknown BSP_FAULT \"\(name)\"; known: \(Fault.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }

    /// Whether a fault is on.
    public func contains(_ fault: Fault) -> Bool { !faults.isEmpty && faults.contains(fault) }

    /// Whether any fault is on.
    public var isEmpty: Bool { faults.isEmpty }

    /// The names switched on.
    public var names: [String] { faults.map(\.rawValue).sorted() }

    /// The faults that act in the emulated OS, for it to check.
    var os: OSFaults {
        let inOS: [(Fault, OSFaults.Fault)] = [
            (.timerOneTickLate, .timerOneTickLate), (.allowConcurrentLaunch, .allowConcurrentLaunch),
            (.noPendingLimit, .noPendingLimit), (.autoLaunchIgnoresConstraints, .autoLaunchIgnoresConstraints),
        ]
        return OSFaults(Set(inOS.filter { contains($0.0) }.map(\.1)))
    }
}

extension Substring {
    fileprivate func trimmingCharactersInSet() -> String {
        String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
