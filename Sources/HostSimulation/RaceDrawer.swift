import HostProtocol
import RustSide

/// A ``RacePlan`` being consumed.
struct RaceDrawer {
    private var remaining: [Race: ArraySlice<Race.Side>]
    private var rng: SplitMix64?

    init(_ plan: RacePlan) {
        remaining = plan.choices.mapValues { ArraySlice($0) }
        rng = plan.seed.map(SplitMix64.init(seed:))
    }

    /// The side that goes first the next time `race` is contested.
    mutating func next(_ race: Race) -> Race.Side {
        if let side = remaining[race]?.popFirst() { return side }
        guard var r = rng else { return .first }
        defer { rng = r }
        return r.chance(race.secondFirstChance) ? .second : .first
    }

    /// Puts sides drawn but not used back, to be drawn first the next time (in order).
    mutating func giveBack(_ race: Race, _ sides: [Race.Side]) {
        remaining[race] = ArraySlice(sides + (remaining[race] ?? []))
    }
}
