/// Every method and event of the contract, in one list.
///
/// The plugin's dispatcher, the conformance suite and the docs are checked
/// against this list by tests, so a method cannot be added in one place only.
public enum MethodRegistry {
    /// A method's name and kind, without its types.
    public struct Entry: Sendable, Hashable {
        /// The method string on the wire.
        public let name: String
        /// Invoke, session method or `os/` control.
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
        entry(OSWebviewCreated.self, isExtension: true),
        entry(OSBlockMain.self, isExtension: true),
        entry(OSSendToBackground.self, isExtension: true),
    ]

    /// The events sent only under `--os ios`.
    public static let iosEvents: [String] = [
        AppLaunchedEvent.name,
        AppTerminatedEvent.name,
        LaunchDeferredEvent.name,
        AppStateChangedEvent.name,
    ]

    /// The entry for a method name (the contract's methods and `os/submit`).
    public static func method(named name: String) -> Entry? {
        methods.first { $0.name == name }
    }

    /// The entry for a method name as a plugin running with `--os mode` serves it.
    public static func method(named name: String, os mode: OSMode) -> Entry? {
        method(named: name) ?? (mode == .ios ? iosMethods.first { $0.name == name } : nil)
    }

    /// The method a caller of the unknown `name` probably meant, among those a plugin running
    /// with `--os mode` serves: one equal but for letter case, else the nearest within two
    /// edits (insertions, deletions, substitutions); ties go to the first in registry order.
    ///
    /// ```swift
    /// MethodRegistry.suggestion(for: "startKeepAlive", os: .manual)  // "startKeepalive"
    /// MethodRegistry.suggestion(for: "os/advance", os: .manual)      // nil
    /// ```
    public static func suggestion(for name: String, os mode: OSMode) -> String? {
        let names = (methods + (mode == .ios ? iosMethods : [])).map(\.name)
        let bytes = Array(name.utf8)
        guard bytes.count <= 64 else { return nil }  // no method name is near a long one
        let lower = name.lowercased()
        if let sameLetters = names.first(where: { $0.lowercased() == lower }) { return sameLetters }
        var best: (name: String, distance: Int)?
        for candidate in names {
            guard let d = editDistance(Array(candidate.utf8), bytes, atMost: 2) else { continue }
            if d < best?.distance ?? Int.max { best = (candidate, d) }
        }
        return best?.name
    }

    /// The Levenshtein distance of two byte strings, nil when it exceeds `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        // One row of the table at a time: row[j] is the distance of a's prefix to b's first j bytes.
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var next = [i + 1]
            for (j, y) in b.enumerated() {
                next.append(Swift.min(row[j] + (x == y ? 0 : 1), row[j + 1] + 1, next[j] + 1))
            }
            if next.min()! > limit { return nil }
            row = next
        }
        return row[b.count] <= limit ? row[b.count] : nil
    }
}
