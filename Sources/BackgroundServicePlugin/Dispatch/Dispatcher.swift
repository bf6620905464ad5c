import HostProtocol

/// The two dispatch queues the seed runs on, emulated deterministically (`--dispatch`).
///
/// On an iPhone, Tauri runs every invoke on its serial `ipc` queue, while the seed's BGTask
/// launch handlers (registered `using: .main`), their expiration handlers and its safety
/// `Timer` run on the main queue: two queues touch the seed's state without a lock.
///
/// - `ipc` holds the invokes' jobs (``StepJob``s: a seed method run one step at a time).
/// - `main` holds the OS's jobs: each `os/` control, which calls the app's handlers as it
///   goes (their programs run through ``run(_:)``), and, under `--profile strict`, the
///   bodies the invokes hop onto it.
///
/// Under `serial`, and for a lone frame under `tauri`, a job runs to its end as soon as it is
/// queued. Under `tauri`, the jobs of one JSON-RPC batch are in progress at once: the batch is
/// read through (its invokes queued on `ipc`, its `os/` controls on `main`), then the queues
/// run; whenever both have a step ready, ``DispatchSchedule`` picks the queue that runs its next
/// step. Each queue stays serial. One owner calls all of this (the engine): nothing here is
/// concurrent for real, so the output stays a pure function of the input and the flags.
final class Dispatcher {
    /// `--dispatch`.
    let mode: DispatchMode
    /// The decisions' source.
    private(set) var schedule: DispatchSchedule
    // `@exclusivity(unchecked)` where marked (read on every request): no access to these
    // spans a call into other code; a job runs after it is taken off its queue.
    @exclusivity(unchecked) private var ipc = JobQueue<StepJob>()
    @exclusivity(unchecked) private var main = JobQueue<() -> Void>()
    /// The queue whose code runs now (nil outside any job).
    private(set) var current: DispatchQueueName?
    /// The step running now: which seed method and statement let go of a dropped invoke.
    var currentStep: (program: String, label: String)? {
        runningJob.map { ($0.name, $0.runningStep ?? "") }
    }
    private var runningJob: StepJob?
    /// What it is doing: idle, draining, reading or draining a batch (``DispatchPhase``).
    @exclusivity(unchecked) private var phase = DispatchPhase.idle
    /// True while a batch's jobs are in progress under `tauri`.
    var interleaving: Bool { phase.interleaving }
    /// Set by the engine: whether a body hopped onto main now deadlocks (its caller blocks
    /// the main thread waiting for its answer); it reports the deadlock when so.
    var hopDeadlocks: (StepJob) -> Bool = { _ in false }
    /// The bodies that deadlocked so, held until the app's process ends (they then answer
    /// `terminated`) or `plugin/reset` (answered `reset`).
    private var deadlocked: [StepJob] = []

    init(mode: DispatchMode, seed: UInt64) {
        self.mode = mode
        schedule = DispatchSchedule(seed: seed)
    }

    // MARK: - Queueing

    /// `DispatchQueue(label: "ipc").async`: Tauri calling an `@objc` method.
    func asyncIPC(_ job: StepJob) {
        guard !job.isFinished else { return }
        switch phase.jobArrived(queuesEmpty: ipc.isEmpty && main.isEmpty) {
        case .runAlone:
            // Nothing queued and nothing to interleave with: run it now, as `drain()` would,
            // without queueing it (the path of every invoke under `serial`), then what it queued.
            phase = .draining
            within(.ipc) { runToEnd(job) }
            phase = .idle
            drain()
        case .queue:
            ipc.append(job)
        case .queueAndDrain:
            ipc.append(job)
            drain()
        }
    }

    /// `DispatchQueue.main.async`: a job for the main queue.
    func asyncMain(_ job: @escaping () -> Void) {
        main.append(job)
        if phase.jobArrived(queuesEmpty: false) == .queueAndDrain { drain() }
    }

    /// Runs a program on the queue that calls it (a handler the OS calls on main). On main,
    /// under `tauri` in a batch, the `ipc` queue may run steps before each of its steps.
    func run(_ job: StepJob) {
        guard mode == .tauri else { return execute(job, toEnd: true) }
        while !job.isFinished {
            if current == .main { yieldToIPC() }
            execute(job)
        }
    }

    /// Runs `body` (the reading of one batch) with its jobs in progress at once under `tauri`,
    /// then runs them all; under `serial` each job has already run when it was queued.
    func batch(_ body: () -> Void) {
        guard mode == .tauri, !interleaving else { return body() }
        phase.beginBatch()
        body()
        drain()
        phase.endBatch()
    }

    /// Runs every queued job to its end (the barrier before a session method).
    func drain() {
        guard let before = phase.beginDrain() else { return }
        defer { phase = before }
        while true {
            let queue: DispatchQueueName
            switch (ipc.isEmpty, main.isEmpty) {
            case (true, true): return
            case (false, true): queue = .ipc
            case (true, false): queue = .main
            case (false, false): queue = interleaving ? schedule.choose() : .ipc
            }
            if queue == .ipc {
                runIPC(toEnd: !interleaving)
            } else {
                let job = main.removeFirst()
                phase.grantMain(true)
                within(.main, job)
                phase.grantMain(false)
            }
        }
    }

    // MARK: - Schedule

    /// `plugin/dispatchSchedule`.
    func install(_ params: PluginDispatchSchedule.Params) -> PluginDispatchSchedule.Result {
        schedule.install(params, mode: mode)
    }

    /// What a `Timer.invalidate()` sent now does to a timer of the main run loop: under
    /// `tauri`, sent from `ipc` (off the timer's thread), the schedule's choice; otherwise
    /// (and by default) `removed`.
    func timerInvalidation() -> TimerInvalidation {
        guard mode == .tauri, let current, current != .main else { return .removed }
        return schedule.chooseInvalidation()
    }

    /// Holds a body that can never run: main is blocked by the very caller it would answer.
    func park(_ job: StepJob) {
        deadlocked.append(job)
    }

    /// The app's process ended: each held body runs now and, finding no process, answers
    /// `terminated` (``BridgeCall``).
    func releaseDeadlocked() {
        let jobs = deadlocked
        deadlocked = []
        for job in jobs { execute(job, toEnd: true) }
    }

    /// `plugin/reset`: the schedule as at start (the queues are empty: reset is a barrier).
    /// The bodies held on a blocked main thread never run: a fresh plugin holds no invoke, so
    /// each is answered `reset`, as the pending `waitForCancel` is, and its id is free again.
    func reset() {
        schedule.reset()
        let jobs = deadlocked
        deadlocked = []
        for job in jobs { job.abandon(.reset) }
    }

    // MARK: - Running

    /// Before a main step: `ipc` runs its steps for as long as the schedule picks it.
    private func yieldToIPC() {
        if phase.takeMainGrant() { return }
        guard interleaving else { return }
        while !ipc.isEmpty, schedule.choose() == .ipc { runIPC(toEnd: false) }
    }

    /// One step of the `ipc` queue's head job (or all of them).
    private func runIPC(toEnd: Bool) {
        guard let job = ipc.first else { return }
        within(.ipc) {
            if toEnd { return runToEnd(job) }
            execute(job)
        }
        if job.isFinished { ipc.removeFirst() }
    }

    /// Runs `job` to its end: at once under `serial`, step by step under `tauri`.
    private func runToEnd(_ job: StepJob) {
        if mode == .serial { return execute(job, toEnd: true) }
        while !job.isFinished { execute(job) }
    }

    /// Runs one step of `job` (or, under `serial`, all of them at once, without a cursor).
    private func execute(_ job: StepJob, toEnd: Bool = false) {
        let saved = runningJob
        runningJob = job
        if toEnd { job.runToEnd() } else { job.step() }
        runningJob = saved
    }

    private func within(_ queue: DispatchQueueName, _ body: () -> Void) {
        let saved = current
        current = queue
        body()
        current = saved
    }
}
