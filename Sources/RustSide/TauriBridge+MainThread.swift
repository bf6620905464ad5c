import HostProtocol

/// A command of the app's made from a synchronous `#[tauri::command]` on the main thread
/// (issue 22): the command waits there for the Rust side, which waits in `run_mobile_plugin`
/// for the plugin, so the app's main thread is blocked until the invoke is answered. The
/// invoke says so with `"x-mainThreadCaller": true` among its params (`docs/protocol.md`,
/// "A caller blocked on the main thread"); the plugin ignores the member otherwise.
extension TauriBridge {
    /// The next invoke of each of `methods` is made while the main thread waits for it.
    public func callFromMainThread(_ methods: Set<String>) {
        fromMainThread.withLock { $0.formUnion(methods) }
    }

    /// No invoke is made from the main thread any more (the command has returned).
    public func mainThreadReturned() {
        fromMainThread.withLock { $0.removeAll() }
    }

    /// `params` with the member added when `method`'s next invoke is the main thread's.
    func markedFromMainThread(_ method: String, _ params: JSONValue?) -> JSONValue? {
        guard fromMainThread.withLock({ $0.remove(method) != nil }) else { return params }
        var object = params?.objectValue ?? [:]
        object[InvokeMarker.mainThreadCaller] = true
        return .object(object)
    }
}
