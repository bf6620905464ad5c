import HostProtocol

/// The engine's handlers by method name, found by the name's bytes (a length check
/// and a `memcmp` or two) rather than by hashing it: a lookup runs for every request.
///
/// ```swift
/// var handlers = HandlerTable()
/// handlers["plugin/state"] = { invoke in invoke.resolve() }
/// handlers["plugin/state"]  // the closure
/// ```
struct HandlerTable {
    typealias Handler = (Invoke) -> Void

    private var names = StringTable([])
    /// By position in `names.entries`.
    private var handlers: [Handler] = []

    /// The handler of `method`; setting one replaces any earlier one for that name.
    subscript(method: String) -> Handler? {
        get { names.index(of: method).map { handlers[$0] } }
        set {
            var pairs = zip(names.entries.map(\.string), handlers).filter { !$0.0.utf8.elementsEqual(method.utf8) }
            if let newValue { pairs.append((method, newValue)) }
            names = StringTable(pairs.map(\.0))
            handlers = names.entries.map { entry in pairs.first { $0.0.utf8.elementsEqual(entry.string.utf8) }!.1 }
        }
    }
}
