/// How the plugin runs the seed's code (`--dispatch`).
public enum DispatchMode: String, JSONStringEnum, Hashable {
    /// One executor: every job runs to completion before the next starts (the default).
    case serial
    /// As Tauri on iOS: invokes on an emulated `ipc` queue, the OS's launch and expiration
    /// handlers and the safety timer on an emulated main queue. The steps of the jobs of one
    /// JSON-RPC batch interleave under a schedule (`--dispatch-seed`, `plugin/dispatchSchedule`).
    case tauri
}

/// One of the two emulated dispatch queues of `--dispatch tauri`.
public enum DispatchQueueName: String, ListedName {
    /// Tauri's serial queue for invokes.
    case ipc
    /// The main queue: BGTask handlers (`using: .main`), their expiration handlers, the `Timer`.
    case main

    /// `"queue names"`.
    public static var listNoun: String { "queue names" }
}

/// What a `Timer.invalidate()` sent from a queue other than the one the timer was scheduled on
/// does under `--dispatch tauri`: Apple's documentation says such a timer may not be removed
/// from its run loop (`plugin/dispatchSchedule`'s `invalidations`).
public enum TimerInvalidation: String, ListedName {
    /// The timer is removed from its run loop, as if invalidated on its own thread (the default).
    case removed
    /// The timer stays in its run loop and still fires at its deadline.
    case notRemoved

    /// `"timer invalidations"`.
    public static var listNoun: String { "timer invalidations" }
}

/// `plugin/dispatchSchedule` (extension): reports the interleaving decisions made since the
/// previous call (or the start, or `plugin/reset`) and installs the choices for the next ones.
///
/// Under `--dispatch tauri`, whenever both queues have a step ready the plugin asks its schedule
/// which queue runs next: the explicit `choices` first, in order, then a PRNG seeded with
/// `--dispatch-seed` (or `seed`). Under `--dispatch serial` no decision is ever made.
///
/// ```json
/// {"jsonrpc":"2.0","id":1,"method":"plugin/dispatchSchedule","params":{"choices":["ipc","main","main"]}}
/// {"id":1,"jsonrpc":"2.0","result":{"decisions":0,"dispatch":"tauri","taken":[],"unused":0}}
/// ```
public enum PluginDispatchSchedule: RPCMethod {
    public static let name = "plugin/dispatchSchedule"
    public static let kind = MethodKind.session

    /// `{choices?, seed?, invalidations?}`: `choices` an array of queue names, `seed` an integer
    /// from 0 to 2^63-1; an error names the member (`choices[2]`), what it may be, and what it
    /// was. An empty list is left out when written.
    public struct Params: JSONCodable, Codable, Hashable {
        /// The queues to run at the next decisions, in order (default: none).
        @NameList public var choices: [DispatchQueueName]
        /// Reseeds the PRNG that decides once the choices are used up (default: keep it).
        @InRangeIfPresent<Seed> public var seed: Int64?
        /// What the next off-thread `Timer.invalidate()`s do, in order; past them `removed`.
        @NameList public var invalidations: [TimerInvalidation]

        /// A PRNG seed: an integer from 0 to 2^63-1.
        public enum Seed: IntegerRange {
            /// The member's type.
            public typealias Number = Int64
            /// 0 to `Int64.max`.
            public static let bounds: ClosedRange<Int64> = 0...Int64.max
        }

        /// Creates params.
        public init(choices: [DispatchQueueName] = [], seed: Int64? = nil, invalidations: [TimerInvalidation] = []) {
            self.choices = choices
            self.seed = seed
            self.invalidations = invalidations
        }
    }

    /// What happened since the previous call.
    public struct Result: JSONCodable, Codable, Hashable {
        /// `--dispatch`.
        public var dispatch: DispatchMode
        /// How many decisions were made.
        public var decisions: Int
        /// The queue chosen at each decision, in order (the first ``takenLimit`` only).
        public var taken: [DispatchQueueName]
        /// How many of the previously installed choices were not used.
        public var unused: Int
        /// What each off-thread `Timer.invalidate()` did, in order, when the previous call
        /// installed `invalidations` (absent otherwise, or when none happened).
        public var invalidations: [TimerInvalidation]?

        /// The longest `taken` list reported.
        public static let takenLimit = 65_536

        /// Creates a result.
        public init(
            dispatch: DispatchMode, decisions: Int, taken: [DispatchQueueName], unused: Int,
            invalidations: [TimerInvalidation]? = nil
        ) {
            self.dispatch = dispatch
            self.decisions = decisions
            self.taken = taken
            self.unused = unused
            self.invalidations = invalidations
        }
    }
}
