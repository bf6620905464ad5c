import RustSide
import Synchronization

/// The simulation's ``RaceArbiter``: each side of a race waits at its gate until
/// the other side arrives too (the race is contested: the ``RacePlan`` decides who
/// goes first, and the decision is recorded) or until the system is otherwise idle
/// (the other side is not coming at this instant: nothing to decide, nothing
/// recorded). A side that arrives after the other has passed goes at once.
///
/// ``Race/runEndVsApp`` has one side in the host and the other in whoever drives the
/// simulation: a run's end waits in its window only when the app's next command is
/// due at this instant (`appCommandDue`); when nothing else can run, the plan decides
/// whether the run's end goes on now or waits until the app's command has returned
/// (``appCommandDone()``).
///
/// ```swift
/// let races = SimulationRaces(plan: RacePlan(seed: 7)) { record in print(record) }
/// ```
final class SimulationRaces: Sendable {
    private enum Gate {
        /// Waiting: for the other side to arrive (`afterPartner` false), or to pass.
        case parked(CheckedContinuation<Void, Never>, sequence: UInt64, afterPartner: Bool)
        case going
        case passed
    }

    private struct Key: Hashable {
        let race: Race
        let run: UInt64
        let process: Int
    }

    private struct AppWait {
        let continuation: CheckedContinuation<Void, Never>
        let sequence: UInt64
        /// Decided: it waits for the app's command.
        var afterApp = false
    }

    private struct State {
        var drawer: RaceDrawer
        var gates: [Key: [Race.Side: Gate]] = [:]
        var app: [Key: AppWait] = [:]
        var records: [RaceRecord] = []
        var sequence: UInt64 = 0
    }

    private let state: Mutex<State>
    /// Races the plan leaves alone (``RacePlan/decides(_:)``): their sides go at once.
    private let unraced: Set<Race>
    private let decided: @Sendable (RaceRecord) -> Void
    private let appCommandDue: @Sendable () -> Bool

    /// Decides by `plan`; `decided` sees each decision as it is made; `appCommandDue`
    /// says whether the app's next command comes at this instant.
    init(
        plan: RacePlan, appCommandDue: @escaping @Sendable () -> Bool = { false },
        decided: @escaping @Sendable (RaceRecord) -> Void
    ) {
        state = Mutex(State(drawer: RaceDrawer(plan)))
        unraced = Set(Race.allCases.filter { !plan.decides($0) })
        self.decided = decided
        self.appCommandDue = appCommandDue
    }

    /// Every decision so far, in order.
    var records: [RaceRecord] { state.withLock { $0.records } }

    /// The arbiter for app process `process`'s Rust side (its runs are numbered from 1).
    func arbiter(process: Int) -> any RaceArbiter { ProcessRaces(races: self, process: process) }

    func arrive(_ race: Race, _ side: Race.Side, run: UInt64, process: Int) async {
        if unraced.contains(race) { return }
        if race == .runEndVsApp {
            guard appCommandDue() else { return }
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                state.withLock { s in
                    s.sequence += 1
                    s.app[Key(race: race, run: run, process: process)] = AppWait(continuation: c, sequence: s.sequence)
                }
            }
            return
        }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let (go, record) = state.withLock { s -> (CheckedContinuation<Void, Never>?, RaceRecord?) in
                let key = Key(race: race, run: run, process: process)
                var gate = s.gates[key] ?? [:]
                s.sequence += 1
                defer { s.gates[key] = gate }
                switch gate[side.other] {
                case .passed?:
                    gate[side] = .going
                    return (c, nil)
                case .going?:
                    gate[side] = .parked(c, sequence: s.sequence, afterPartner: true)
                    return (nil, nil)
                case .parked(let other, let sequence, _)?:
                    let first = s.drawer.next(race)
                    let record = RaceRecord(race: race, run: run, first: first, process: process)
                    s.records.append(record)
                    if first == side {
                        gate[side] = .going
                        gate[side.other] = .parked(other, sequence: sequence, afterPartner: true)
                        return (c, record)
                    }
                    gate[side.other] = .going
                    gate[side] = .parked(c, sequence: s.sequence, afterPartner: true)
                    return (other, record)
                case nil:
                    gate[side] = .parked(c, sequence: s.sequence, afterPartner: false)
                    return (nil, nil)
                }
            }
            if let record { decided(record) }
            go?.resume()
        }
    }

    func passed(_ race: Race, _ side: Race.Side, run: UInt64, process: Int) {
        guard race != .runEndVsApp, !unraced.contains(race) else { return }
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            let key = Key(race: race, run: run, process: process)
            var gate = s.gates[key] ?? [:]
            gate[side] = .passed
            var next: CheckedContinuation<Void, Never>?
            if case .parked(let other, _, _)? = gate[side.other] {
                gate[side.other] = .going
                next = other
            }
            if case .passed? = gate[side.other] { s.gates[key] = nil } else { s.gates[key] = gate }
            return next
        }
        next?.resume()
    }

    /// Decides a race that needs no gate (both sides are known to be ready), met by
    /// app process `process`.
    func choose(_ race: Race, run: UInt64?, process: Int) -> Race.Side {
        let record = state.withLock { s in
            let r = RaceRecord(race: race, run: run, first: s.drawer.next(race), process: process)
            s.records.append(r)
            return r
        }
        decided(record)
        return record.first
    }

    /// Draws `count` orders of `race` ahead of the decisions they are for (the plugin takes
    /// as many as its batch needs: ``Race/ipcVsMain``); ``settle(_:drawn:taken:)`` records the
    /// decisions and gives back what was not used, so that a frozen plan replays them.
    func draw(_ race: Race, count: Int) -> [Race.Side] {
        state.withLock { s in (0..<count).map { _ in s.drawer.next(race) } }
    }

    /// Records `taken` (the sides the decisions went to: the first of `drawn`, then the
    /// default past their end), gives back the orders drawn but not used, and skips as many
    /// as were taken past the end of `drawn` (a frozen plan holds those too).
    func settle(_ race: Race, drawn: [Race.Side], taken: [Race.Side]) -> [RaceRecord] {
        state.withLock { s in
            let records = taken.map { RaceRecord(race: race, run: nil, first: $0) }
            s.records += records
            if taken.count < drawn.count {
                s.drawer.giveBack(race, Array(drawn.dropFirst(taken.count)))
            } else {
                for _ in drawn.count..<taken.count { _ = s.drawer.next(race) }
            }
            return records
        }
    }

    /// Nothing else can run: a run's end waiting in its window for the app is decided
    /// (the oldest first); true when it goes on now.
    func decideForApp() -> Bool {
        let (go, record) = state.withLock { s -> (CheckedContinuation<Void, Never>?, RaceRecord?) in
            let undecided = s.app.filter { !$0.value.afterApp }
            guard let (key, wait) = undecided.min(by: { $0.value.sequence < $1.value.sequence }) else {
                return (nil, nil)
            }
            let record = RaceRecord(
                race: .runEndVsApp, run: key.run, first: s.drawer.next(.runEndVsApp), process: key.process)
            s.records.append(record)
            if record.first == .first {
                s.app[key] = nil
                return (wait.continuation, record)
            }
            s.app[key]?.afterApp = true
            return (nil, record)
        }
        if let record { decided(record) }
        go?.resume()
        return go != nil
    }

    /// The app's command has returned: every run's end that waited for it goes on.
    // Departs: only after the app's whole command. (An init failure's late completion then
    // races the newer run's waitForCancel as Race.listenerVsLateCompletion, when the plan
    // decides that race.)
    func appCommandDone() {
        let waits = state.withLock { s in
            defer { s.app.removeAll() }
            return s.app.values.sorted { $0.sequence < $1.sequence }
        }
        for w in waits { w.continuation.resume() }
    }

    // Departs: a race is contested only when both sides are ready within one settling of
    // the simulation.

    /// The system is idle: lets the oldest side that waits for a partner who is not
    /// coming go (or, should a side wait for one that cannot pass, that one). False
    /// when no side waits.
    func releaseOne() -> Bool {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            var best: (key: Key, side: Race.Side, sequence: UInt64, afterPartner: Bool)?
            for (key, gate) in s.gates {
                for (side, g) in gate {
                    guard case .parked(_, let sequence, let afterPartner) = g else { continue }
                    if let b = best, (b.afterPartner ? 1 : 0, b.sequence) <= (afterPartner ? 1 : 0, sequence) {
                        continue
                    }
                    best = (key, side, sequence, afterPartner)
                }
            }
            guard let best, case .parked(let c, _, _)? = s.gates[best.key]?[best.side] else { return nil }
            s.gates[best.key]?[best.side] = .going
            return c
        }
        next?.resume()
        return next != nil
    }
}

/// One app process's view of the simulation's races.
struct ProcessRaces: RaceArbiter {
    let races: SimulationRaces
    let process: Int

    func arrive(_ race: Race, _ side: Race.Side, run: UInt64) async {
        await races.arrive(race, side, run: run, process: process)
    }

    func passed(_ race: Race, _ side: Race.Side, run: UInt64) {
        races.passed(race, side, run: run, process: process)
    }
}
