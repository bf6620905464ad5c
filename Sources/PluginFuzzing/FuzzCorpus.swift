import HostProtocol

/// Guided search's corpus (issue 25), one per job, in memory: the cases that reached a
/// coverage point (``FuzzLevel/coverage(_:)``) no earlier case of the job reached, in the order
/// they were kept. Once it holds one, a quarter of the job's cases are made from a kept case
/// (``FuzzLevel/mutate(_:seed:)``), the other three quarters drawn fresh as without
/// guidance: the shallow findings come from fresh cases, and a higher share made them slower.
/// Of the kept cases, those whose last new point the job reached least often are chosen most.
///
/// Which cases are kept depends only on the cases the job ran, so with one job a seed still
/// gives the same cases and findings; with several, each job keeps its own corpus and the
/// cases depend on which job claimed which index. A case made from a kept one cannot be
/// drawn again from its case seed alone: its finding's trace holds the whole case.
///
/// ```swift
/// var corpus = FuzzCorpus<SystemCase>()
/// let c = corpus.parent(seed: seed).map { level.mutate($0, seed: seed) } ?? level.generate(seed: seed)
/// if corpus.consider(c, coverage: level.coverage(outcome) ?? [], prefix: level.prefix) { kept += 1 }
/// ```
struct FuzzCorpus<Case> {
    /// The cases kept, oldest first until ``capacity`` is reached, then each new one in place of
    /// the oldest.
    private(set) var cases: [Case] = []
    /// Per kept case (same index), the last new point it reached: the point it was cut after.
    private var frontiers: [UInt64] = []
    /// How often the job's cases reached each coverage point (each step that reached it counts).
    private(set) var hits: [UInt64: UInt32] = [:]
    /// Cases kept so far, those since replaced included.
    private(set) var kept = 0

    /// Every coverage point the job's cases reached (built on each call; for tests).
    var seen: Set<UInt64> { Set(hits.keys) }

    /// The most cases a corpus holds: a long run keeps finding points, and the memory its cases
    /// take stays bounded (each at most `--depth` actions). The points reached and their counts
    /// are not bounded, but are no more than the abstraction's reachable transitions (a 12-byte
    /// entry each, more with the table's slack); the counts saturate.
    static var capacity: Int { 10_000 }

    /// How often a case is made from a kept one, once one is kept.
    static var mutationChance: Double { 0.25 }

    /// How many kept cases a parent is chosen among: the one whose frontier the job's cases
    /// reached least often (a tournament; AFL's power schedules favour rarely reached paths
    /// the same way).
    static var tournament: Int { 3 }

    /// Keeps `c` when `coverage` (a point per step) has a point not seen before, cut after the
    /// last step that reached one (`prefix`: the case's first steps; what followed reached
    /// nothing new, and a case made from the kept one draws a tail of its own); returns whether
    /// it was kept.
    mutating func consider(_ c: Case, coverage: [UInt64], prefix: (Case, Int) -> Case) -> Bool {
        var last: Int?
        for (step, point) in coverage.enumerated() {
            let n = hits[point, default: 0]
            if n == 0 { last = step }
            hits[point] = n == .max ? n : n + 1
        }
        guard let last else { return false }
        if cases.count < Self.capacity {
            cases.append(prefix(c, last + 1))
            frontiers.append(coverage[last])
        } else {
            cases[kept % Self.capacity] = prefix(c, last + 1)
            frontiers[kept % Self.capacity] = coverage[last]
        }
        kept += 1
        return true
    }

    /// The kept case that case seed `seed` is made from, or nil for a fresh case: drawn from
    /// the seed alone, the rarest frontier of ``tournament`` kept cases.
    func parent(seed: UInt64) -> Case? {
        guard !cases.isEmpty else { return nil }
        var rng = SplitMix64(seed: seed ^ 0x5DEE_CE66_D1CE_4E5B)
        guard rng.chance(Self.mutationChance) else { return nil }
        var best = rng.below(cases.count)
        for _ in 1..<Self.tournament {
            let other = rng.below(cases.count)
            if hits[frontiers[other], default: 0] < hits[frontiers[best], default: 0] { best = other }
        }
        return cases[best]
    }
}
