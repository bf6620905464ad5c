/// Every method and event of the contract, in one list.
///
/// The plugin's dispatcher, the conformance suite and the docs are checked
/// against this list by tests, so a method cannot be added in one place only.
public enum MethodRegistry {
    /// A method's name and kind, without its types.
    public struct Entry: Sendable, Hashable {
        public let name: String
        public let kind: MethodKind
        /// True for this implementation's extensions (not in the contract).
        public let isExtension: Bool
    }

    private static func entry<M: RPCMethod>(_: M.Type, isExtension: Bool = false) -> Entry {
        Entry(name: M.name, kind: M.kind, isExtension: isExtension)
    }

    /// All methods, in contract order.
    public static let methods: [Entry] = [
        entry(StartKeepalive.self),
        entry(WaitForCancel.self),
        entry(CompleteBgTask.self),
        entry(StopKeepalive.self),
        entry(CancelCancelListener.self),
        entry(OSLaunch.self),
        entry(OSExpire.self),
        entry(OSAdvanceTime.self),
        entry(OSPendingTaskRequests.self),
        entry(OSSetConditions.self),
        entry(OSSubmit.self, isExtension: true),
        entry(Initialize.self),
        entry(Shutdown.self),
        entry(PluginStateMethod.self),
        entry(PluginReset.self),
        entry(PluginDispatchSchedule.self, isExtension: true),
        entry(RPCDiscover.self, isExtension: true),
    ]

    /// All event names, in contract order.
    public static let events: [String] = [
        RequestSubmittedEvent.name,
        SubmitFailedEvent.name,
        RequestCancelledEvent.name,
        TaskLaunchedEvent.name,
        TaskExpiredEvent.name,
        TaskCompletedEvent.name,
        ViolationEvent.name,
        SafetyTimerEvent.name,
    ]

    /// The methods served only under `--os ios` (issue 12; not in the contract).
    /// Under `--os manual` they do not exist: `-32601`, as for any unknown name.
    public static let iosMethods: [Entry] = [
        entry(OSTerminate.self, isExtension: true),
        entry(OSOpenApp.self, isExtension: true),
        entry(OSExplain.self, isExtension: true),
        entry(OSSetPolicy.self, isExtension: true),
    ]

    /// The events sent only under `--os ios`.
    public static let iosEvents: [String] = [
        AppLaunchedEvent.name,
        AppTerminatedEvent.name,
        LaunchDeferredEvent.name,
    ]

    /// The entry for a method name (the contract's methods and `os/submit`).
    public static func method(named name: String) -> Entry? {
        methods.first { $0.name == name }
    }

    /// The entry for a method name as a plugin running with `--os mode` serves it.
    public static func method(named name: String, os mode: OSMode) -> Entry? {
        method(named: name) ?? (mode == .ios ? iosMethods.first { $0.name == name } : nil)
    }
}
