/// The ranges of the policy's knobs (``NumberRange``): each knob names its range once, on
/// its declaration, and reading, writing, the errors and the OpenRPC schema follow.
extension IOSPolicy {
    /// A duration: seconds from 0 to a year, written as the exact decimal of the
    /// nanoseconds the plugin uses (`0.000000001`, never `1e-09`; `docs/protocol.md` section 3).
    public enum Seconds: DoubleRange {
        /// 0 to a year.
        public static let bounds = 0...IOSPolicy.maxSeconds
        /// `"a number of seconds from 0 to 31536000"`.
        public static var expected: String { IOSPolicy.secondsExpected(bounds) }
        /// The exact decimal.
        public static func json(_ number: Double) -> JSONValue { IOSPolicy.secondsJSON(number) }
    }

    /// A runtime budget (`*BudgetSecs`): at least one tick of the clock, so that it does not
    /// round to 0 ns, and at most a year.
    public enum BudgetSeconds: DoubleRange {
        /// One tick to a year.
        public static let bounds = IOSPolicy.minBudgetSeconds...IOSPolicy.maxSeconds
        /// `"a number of seconds from 0.000000001 to 31536000"`.
        public static var expected: String { IOSPolicy.secondsExpected(bounds) }
        /// The exact decimal.
        public static func json(_ number: Double) -> JSONValue { IOSPolicy.secondsJSON(number) }
    }

    /// A chance, from 0 to 1.
    public typealias Chance = Fraction

    /// The daily energy budget: an integer from 1 to 100,000 launches.
    public enum LaunchesPerDay: IntegerRange {
        /// The member's type.
        public typealias Number = Int
        /// 1 to ``IOSPolicy/maxEnergyBudgetLaunches``.
        public static let bounds = 1...IOSPolicy.maxEnergyBudgetLaunches
    }

    /// `maxConcurrentTasks`: an integer from 1 to 100 (`os/setPolicy` also takes `null`,
    /// no limit, which its errors say).
    public enum ConcurrentTasks: IntegerRange {
        /// The member's type.
        public typealias Number = Int
        /// 1 to ``IOSPolicy/maxConcurrentTasksLimit``.
        public static let bounds = 1...IOSPolicy.maxConcurrentTasksLimit
        /// `"an integer from 1 to 100, or null (no limit)"`.
        public static var expected: String {
            "an integer from \(bounds.lowerBound) to \(bounds.upperBound), or null (no limit)"
        }
    }

    /// `"a number of seconds from LOW to HIGH"`, both as the protocol writes times.
    static func secondsExpected(_ bounds: ClosedRange<Double>) -> String {
        "a number of seconds from \(secondsJSON(bounds.lowerBound)) to \(secondsJSON(bounds.upperBound))"
    }
}
