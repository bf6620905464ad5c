/// A small, fast, seedable pseudo-random generator (SplitMix64): a pure value, so
/// the same seed gives the same sequence on every platform and copying it copies
/// its position. The `--os ios` policy draws from one.
///
/// The same algorithm as `PluginHost`'s public `SplitMix64` (which the plugin must not
/// depend on); kept internal here so that modules importing both `PluginHost` and
/// this target see one name. Folding them into `HostProtocol` is one file move.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let n = Int.random(in: 0..<10, using: &rng)
/// let ms = rng.uniform(in: 2_000...5_000)
/// ```
struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// Creates a generator from a seed.
    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (bound > 0), without modulo bias worth caring about here.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// True with probability `p` (one draw, whatever `p` is).
    mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < p
    }

    /// A value in `range`, from one draw (modulo the range's size; the bias is below
    /// 2^-40 for ranges under 2^24 values).
    mutating func uniform(in range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        let offset = width == 0 ? next() : next() % width
        return range.lowerBound &+ Int64(bitPattern: offset)
    }
}
