/// The smallest, middle and largest of a figure's values over the rounds of a bench run.
///
/// ```swift
/// Spread([1.2, 1.05, 1.4])   // min 1.05, median 1.2, max 1.4
/// Spread([1, 2, 3, 10])      // median 2.5 (the mean of the two middle values)
/// ```
package struct Spread: Sendable, Equatable {
    package var min: Double
    package var median: Double
    package var max: Double

    package init(min: Double, median: Double, max: Double) {
        self.min = min
        self.median = median
        self.max = max
    }

    /// The spread of `values`; nil for none.
    package init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        let mid = s.count / 2
        self.init(min: s[0], median: s.count % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2, max: s[s.count - 1])
    }

    /// How far apart the rounds are: `max / min - 1` (0.2 is 20 %); 0 when `min` is not
    /// above 0.
    package var relativeRange: Double { min > 0 ? max / min - 1 : 0 }

    /// The index of the value that is the median (the lower middle one for an even
    /// count): the round a report shows whole.
    package static func medianIndex(_ values: [Double]) -> Int? {
        guard !values.isEmpty else { return nil }
        let order = values.indices.sorted { values[$0] < values[$1] || (values[$0] == values[$1] && $0 < $1) }
        return order[(values.count - 1) / 2]
    }
}
