import HostProtocol

/// Racing batches (`--dispatch tauri`): things that happen at once on the two queues.
///
/// Under `tauri` the unit of concurrency is one JSON-RPC batch (docs/protocol.md section 8):
/// its invokes run on `ipc`, its `os/` controls (and the handlers and timer firings they
/// cause) on main, statement by statement under a schedule. A racing batch is one or two
/// invokes and an OS event (the running task's expiration, time moved onto the safety
/// timer's deadline, a launch), in a random order, with ids fresh in the batch, and a random
/// schedule: ``scheduleLength`` choices drawn with a leaning towards one queue or the other.
extension StepGenerator {
    /// How often a step is a racing batch.
    static let batchChance = 0.15
    /// Choices drawn per batch (a two-member batch takes about 20 decisions).
    static let scheduleLength = 48

    /// The invokes of racing batches, with their weights.
    static let batchInvokes = [
        (WaitForCancel.name, 30), (CompleteBgTask.name, 30), (CancelCancelListener.name, 15),
        (StopKeepalive.name, 15), (StartKeepalive.name, 10),
    ]

    /// One of `options`, each as likely as its weight.
    mutating func pick<T>(weighted options: [(T, Int)]) -> T {
        var roll = rng.below(options.reduce(0) { $0 + $1.1 })
        for (option, weight) in options {
            if roll < weight { return option }
            roll -= weight
        }
        return options[options.count - 1].0
    }

    /// A racing batch and its schedule.
    mutating func racingBatch(model: ReferenceModel) -> FuzzStep {
        var members: [ReferenceModel.Input] = []
        for _ in 0..<(rng.chance(0.2) ? 2 : 1) {
            let method = pick(weighted: Self.batchInvokes)
            members.append(.request(Request(id: freshID(), method: method, params: params(for: method, model: model))))
        }
        let roll = rng.below(100)
        let os = roll < 45 ? OSExpire.name : roll < 80 ? OSAdvanceTime.name : OSLaunch.name
        let event = Request(id: freshID(), method: os, params: params(for: os, model: model))
        members.insert(.request(event), at: rng.below(members.count + 1))
        let leaning = pick([0.25, 0.5, 0.75])
        let schedule = (0..<Self.scheduleLength).map { _ in rng.chance(leaning) ? DispatchQueueName.main : .ipc }
        return FuzzStep(.batch(members), schedule: schedule)
    }
}
