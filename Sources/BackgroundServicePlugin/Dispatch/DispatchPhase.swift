/// What the ``Dispatcher`` is doing, as one value: whether a batch is in progress (its jobs
/// interleaved under `--dispatch tauri`), whether its queues are being drained, and whether
/// the main job just picked by a decision still owes its first step no second decision.
/// (It replaces three flags, `interleaving`, `draining` and `mainGranted`, of which only
/// these combinations can occur.) Its events return what the dispatcher does next.
enum DispatchPhase: Equatable {
    /// No job runs and no batch is being read.
    case idle
    /// Outside a batch, jobs run to their ends one after the other.
    case draining
    /// A batch is being read under `tauri`: its jobs are queued, none has run yet.
    case readingBatch
    /// A batch's jobs run interleaved; `mainGranted` while the main job just picked by a
    /// decision has not taken its first step.
    case drainingBatch(mainGranted: Bool)

    /// What to do with a job that arrives on a queue.
    enum Arrival: Equatable {
        /// Run it now, without queueing it: nothing is queued or in progress.
        case runAlone
        /// Queue it; the drain in progress, or the batch's, will run it.
        case queue
        /// Queue it and drain the queues (a drain in progress makes that a no-op).
        case queueAndDrain
    }

    /// True while a batch's jobs are in progress (read or running).
    var interleaving: Bool {
        switch self {
        case .readingBatch, .drainingBatch: true
        case .idle, .draining: false
        }
    }

    /// A job arrives while the queues are empty (`queuesEmpty`) or not.
    func jobArrived(queuesEmpty: Bool) -> Arrival {
        if self == .idle, queuesEmpty { return .runAlone }
        return interleaving ? .queue : .queueAndDrain
    }

    /// A batch starts being read.
    mutating func beginBatch() {
        self = self == .draining ? .drainingBatch(mainGranted: false) : .readingBatch
    }

    /// The batch has been read and its jobs run.
    mutating func endBatch() {
        if case .drainingBatch = self { self = .draining } else { self = .idle }
    }

    /// A drain starts: the phase to restore when it ends, nil when one is already running.
    mutating func beginDrain() -> DispatchPhase? {
        switch self {
        case .idle: self = .draining
        case .readingBatch: self = .drainingBatch(mainGranted: false)
        case .draining, .drainingBatch: return nil
        }
        return self == .draining ? .idle : .readingBatch
    }

    /// A main job picked by a decision starts (`true`) or has ended (`false`).
    mutating func grantMain(_ granted: Bool) {
        if case .drainingBatch = self { self = .drainingBatch(mainGranted: granted) }
    }

    /// Before a main step: true (and the grant used up) when the job was just picked.
    mutating func takeMainGrant() -> Bool {
        guard self == .drainingBatch(mainGranted: true) else { return false }
        self = .drainingBatch(mainGranted: false)
        return true
    }
}
