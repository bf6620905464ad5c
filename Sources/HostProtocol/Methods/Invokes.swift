/// `waitForCancel`: becomes the pending cancel invoke; answered later (resolved by
/// expiration or the safety timer, rejected by completion, stop, or the listener's cancel).
public enum WaitForCancel: RPCMethod {
    public static let name = "waitForCancel"
    public static let kind = MethodKind.invoke
    public typealias Params = EmptyParams
    public typealias Result = NullResult
}

/// `completeBgTask`: the Rust side's "work is done" signal.
public enum CompleteBgTask: RPCMethod {
    public static let name = "completeBgTask"
    public static let kind = MethodKind.invoke
    public typealias Result = NullResult

    /// `success` (default true). Strict reading: a non-boolean `success` (null
    /// included) throws; lenient reading (the `seed` profile): it is left out.
    public struct Params: JSONCodable, Codable, Hashable {
        /// Whether the work succeeded; nil is not sent (the plugin takes `true`).
        public var success: Bool?

        /// Creates params.
        public init(success: Bool? = nil) { self.success = success }

        /// The two shapes nearly every call sends, `{}` and `{"success": true}` (or
        /// `false`), read without the decoder, which costs about 3,000 instructions a
        /// call (`docs/benchmarks.md`); nil for any other shape, which the decoder reads
        /// and judges as before. Both readings agree on these two shapes. (The decoder finds
        /// a member by its key's bytes; no other string is canonically equivalent to this
        /// ASCII key, so `==` agrees, and it is the cheaper comparison here.)
        package static func common(_ json: JSONValue) -> Params? {
            guard case .object(let object) = json else { return nil }
            if object.isEmpty { return Params() }
            guard object.count == 1, let member = object.members.first, member.key == "success",
                case .bool(let success) = member.value
            else { return nil }
            return Params(success: success)
        }
    }
}

/// `stopKeepalive`: cancel both requests, reject the pending cancel invoke,
/// complete an active task with `false`, clean up. Never reschedules.
public enum StopKeepalive: RPCMethod {
    public static let name = "stopKeepalive"
    public static let kind = MethodKind.invoke
    public typealias Params = EmptyParams
    public typealias Result = NullResult
}

/// `cancelCancelListener`: reject the pending cancel invoke, if any, with
/// `listenerCancelled`.
public enum CancelCancelListener: RPCMethod {
    public static let name = "cancelCancelListener"
    public static let kind = MethodKind.invoke
    public typealias Params = EmptyParams
    public typealias Result = NullResult
}

/// Members a host may add to an invoke's params to say how it was made (this project's
/// extensions; a plugin that does not know them ignores them, as it does any unknown member).
public enum InvokeMarker {
    /// `"x-mainThreadCaller": true`: the caller blocks the app's main thread until the invoke
    /// is answered (a synchronous `#[tauri::command]` on the main thread; issue 22,
    /// `docs/protocol.md`, "A caller blocked on the main thread").
    public static let mainThreadCaller = "x-mainThreadCaller"
}
