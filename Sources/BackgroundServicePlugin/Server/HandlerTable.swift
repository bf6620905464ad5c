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

    private var names = StringTable([])
    /// By position in `names.entries`.
    private var handlers: [Handler] = []
    private var queues: [Queue] = []
    private let queue: (String) -> Queue

    /// An empty table; `queue` tells where each method set later runs.
    init(queue: @escaping (String) -> Queue = { _ in .afterBoth }) {
        self.queue = queue
    }

    /// The handler of `method` and the queue it runs on.
    func find(_ method: String) -> (Handler, Queue)? {
        names.index(of: method).map { (handlers[$0], queues[$0]) }
    }

    /// The handler of `method`; setting one replaces any earlier one for that name.
    subscript(method: String) -> Handler? {
        get { names.index(of: method).map { handlers[$0] } }
        set {
            var pairs = zip(names.entries.map(\.string), handlers).filter { !$0.0.utf8.elementsEqual(method.utf8) }
            if let newValue { pairs.append((method, newValue)) }
            names = StringTable(pairs.map(\.0))
            handlers = names.entries.map { entry in pairs.first { $0.0.utf8.elementsEqual(entry.string.utf8) }!.1 }
            queues = names.entries.map { queue($0.string) }
        }
    }
}
