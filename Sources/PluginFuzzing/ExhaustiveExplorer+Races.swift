import HostProtocol

/// Racing batches in exhaustive mode (`--dispatch tauri`).
///
/// Each race letter is an invoke and an OS event sent as one batch (`wait|expire`:
/// `[waitForCancel, os/expire]`), run under every schedule with one preemption: one queue
/// runs for the first `n` decisions, then the other for the rest (`n` from 1 to the number
/// of decisions the batch takes). One preemption is enough for the seed's races: the
/// double completion is `ipc` ×3 then `main`, the lost `waitForCancel` `main` ×1 then `ipc`.
extension ExhaustiveExplorer {
    /// An invoke and an OS event at once.
    public enum RaceLetter: String, CaseIterable, Sendable {
        /// `waitForCancel` and `os/expire` of the running task.
        case waitExpire = "wait|expire"
        /// `completeBgTask` and `os/expire` of the running task.
        case completeExpire = "complete|expire"
        /// `cancelCancelListener` and `os/expire` of the running task.
        case cancelExpire = "cancel|expire"
        /// `waitForCancel` and `os/advanceTime` onto the next due time.
        case waitDue = "wait|due"
        /// `completeBgTask` and `os/advanceTime` onto the next due time.
        case completeDue = "complete|due"
        /// `completeBgTask` and `os/launch` of the refresh task.
        case completeLaunch = "complete|launch-refresh"

        /// The two letters: the invoke, then the OS event.
        var letters: (Letter, Letter) {
            switch self {
            case .waitExpire: (.wait, .expire)
            case .completeExpire: (.complete, .expire)
            case .cancelExpire: (.cancel, .expire)
            case .waitDue: (.wait, .due)
            case .completeDue: (.complete, .due)
            case .completeLaunch: (.complete, .launchRefresh)
            }
        }
    }

    /// One step of a path: a letter, or a race letter with its schedule (`first` runs the
    /// first `preemptAfter` decisions, the other queue the rest).
    public enum Move: Hashable, Sendable {
        /// A letter on its own.
        case letter(Letter)
        /// A race letter under a one-preemption schedule.
        case race(RaceLetter, first: DispatchQueueName, preemptAfter: Int)
    }

    /// The most decisions a one-preemption schedule is explored for.
    static let maxPreemption = 64

    /// Visits every move after `path`: the letters, and under `tauri` each race letter under
    /// each one-preemption schedule; `visit` returns how many decisions the race took.
    func forEachMove(
        after path: [Move], _ visit: ([Move]) throws(PluginDriver.DriverError) -> Int
    ) throws(PluginDriver.DriverError) {
        for letter in Letter.allCases { _ = try visit(path + [.letter(letter)]) }
        guard dispatch == .tauri else { return }
        for race in RaceLetter.allCases {
            for first in DispatchQueueName.allCases {
                var n = 1
                while n <= Self.maxPreemption {
                    let decisions = try visit(path + [.race(race, first: first, preemptAfter: n)])
                    if n >= decisions { break }
                    n += 1
                }
            }
        }
    }

    /// The step a move means in the state `model` is in.
    func step(_ move: Move, model: ReferenceModel) -> FuzzStep {
        switch move {
        case .letter(let letter):
            return step(letter, model: model)
        case .race(let race, let first, let n):
            let (invoke, event) = race.letters
            let members = [step(invoke, model: model).input, step(event, model: model).input]
            let other: DispatchQueueName = first == .ipc ? .main : .ipc
            let schedule = Array(repeating: first, count: n) + Array(repeating: other, count: Self.maxPreemption)
            return FuzzStep(.batch(members), schedule: schedule)
        }
    }
}
