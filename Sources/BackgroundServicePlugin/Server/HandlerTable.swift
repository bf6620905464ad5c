import HostProtocol

/// The engine's handlers by method name, found by the name's bytes (a length check
/// and a `memcmp` or two) rather than by hashing it: a lookup runs for every request.
/// Each comes with the queue its method runs on, worked out once, when it is set.
///
/// ```swift
/// var handlers = HandlerTable()
/// handlers["plugin/state"] = { invoke in invoke.resolve() }
/// handlers["plugin/state"]  // the closure
/// ```
struct HandlerTable {
    typealias Handler = (Invoke) -> Void

    /// Where a method runs (see `Dispatcher`).
    enum Queue {
        /// The main queue (the OS's controls).
        case main
        /// The `ipc` queue (the seed's invokes).
        case ipc
        /// Once both queues are idle (session methods).
        case afterBoth
    }

    /// A handler and the queue it runs on. (A struct, so that the closure keeps its own type:
    /// kept as a bare closure in an array or a tuple, it was reabstracted, and each lookup
    /// allocated a thunk and each call went through two.)
    struct Entry {
        /// What runs the method.
        let handler: Handler
        /// Where it runs.
        let queue: Queue
    }

    private var names = StringTable([])
    /// By position in `names.entries`.
    private var entries: [Entry] = []
    private let queue: (String) -> Queue

    /// An empty table; `queue` tells where each method set later runs.
    init(queue: @escaping (String) -> Queue = { _ in .afterBoth }) {
        self.queue = queue
    }

    /// The handler of `method` and the queue it runs on.
    func find(_ method: String) -> Entry? {
        guard let index = names.index(of: method) else { return nil }
        return entries[index]
    }

    /// The handler of `method`; setting one replaces any earlier one for that name.
    subscript(method: String) -> Handler? {
        get { find(method)?.handler }
        set {
            // Kept as `Entry`s (never as bare closures in an array or a tuple), so that a
            // call of a handler goes through no reabstraction thunk.
            var kept: [(name: String, entry: Entry)] = []
            for (name, entry) in zip(names.entries.map(\.string), entries) where !name.utf8.elementsEqual(method.utf8) {
                kept.append((name, entry))
            }
            if let newValue { kept.append((method, Entry(handler: newValue, queue: queue(method)))) }
            names = StringTable(kept.map(\.name))
            entries = names.entries.map { entry in kept.first { $0.name.utf8.elementsEqual(entry.string.utf8) }!.entry }
        }
    }
}
