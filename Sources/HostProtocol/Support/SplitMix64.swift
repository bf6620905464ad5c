/// A small, fast, seedable pseudo-random generator (SplitMix64, Steele, Lea and Flood): a
/// pure value, so the same seed gives the same sequence on every platform and copying it
/// copies its position. The one generator of the package: the plugin's `--os ios` policy and
/// `--dispatch tauri` schedule draw from it, and so do the host's fuzzers, soak and simulation.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let n = Int.random(in: 0..<10, using: &rng)
/// let ms = rng.uniform(in: 2_000...5_000)
/// if rng.chance(0.2) { rng.below(3) }
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (bound > 0), from one draw (modulo: the bias is below 2^-40
    /// for bounds under 2^24).
    public mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// True with probability `p`, from one draw whatever `p` is.
    public mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < p
    }

    /// A value in `range`, from one draw (modulo the range's size; the bias is below 2^-40
    /// for ranges under 2^24 values).
    public mutating func uniform(in range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        let offset = width == 0 ? next() : next() % width
        return range.lowerBound &+ Int64(bitPattern: offset)
    }
}
