/// A small, fast, seedable pseudo-random generator (SplitMix64). The same seed
/// gives the same sequence on every platform, which is what reproducible fuzzing
/// and schedules need.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let n = Int.random(in: 0..<10, using: &rng)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (bound > 0), without modulo bias worth caring about here.
    public mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < p
    }
}
