import EmulatedIOS
import HostProtocol

/// The frame of one run of a seed method: the method's parameters and local variables,
/// named as in the seed, and the plugin's own state and collaborators through `$0.name`.
///
/// A step of the port is a closure on its frame, so a statement of the seed reads nearly as
/// written: the seed's `currentRefreshTask = nil` is `$0.currentRefreshTask = nil`, its
/// `task.setTaskCompleted(success: success)` is `$0.task?.setTaskCompleted(success: $0.success)`.
/// The state is reached through key paths, so only code in the port's main file, where the
/// state's setters are visible, can write it; mutants (`Mutants/`) can read it, not write it.
@dynamicMemberLookup
final class PortFrame {
    /// `self` in the seed.
    let plugin: BackgroundServicePlugin

    /// `invoke`: an `@objc` method's parameter; in the handlers, `if let invoke = pendingCancelInvoke`.
    var invoke: Invoke?
    /// `task`: a launch handler's parameter; elsewhere `if let task = currentRefreshTask` (or processing).
    var task: BGTask?
    /// `if let cancelInvoke = pendingCancelInvoke`.
    var cancelInvoke: Invoke?
    /// `completeBgTask`'s `let success`.
    var success = true
    /// `completeBgTask`'s `let hadActiveTask`.
    var hadActiveTask = false
    /// `startKeepalive`'s `args`. (Lazy: only `startKeepalive` reads it, and made for every
    /// frame it cost about 460 instructions an invoke, `docs/runs/2026-12-08-invoke-path.md`.)
    lazy var args = StartKeepalive.Params()
    /// `handleProcessingTask`'s `if let timeout = processingSafetyTimeoutSecs`.
    var timeout: Double?
    /// `scheduleNext`'s `refreshReq`.
    var refreshReq: BGAppRefreshTaskRequest?
    /// `scheduleNext`'s `processingReq`.
    var processingReq: BGProcessingTaskRequest?

    init(_ plugin: BackgroundServicePlugin, invoke: Invoke? = nil, task: BGTask? = nil) {
        self.plugin = plugin
        self.invoke = invoke
        self.task = task
    }

    /// The plugin's state, read and written (where its setter is visible).
    subscript<T>(dynamicMember keyPath: ReferenceWritableKeyPath<BackgroundServicePlugin, T>) -> T {
        @inline(__always) get { plugin[keyPath: keyPath] }
        @inline(__always) set { plugin[keyPath: keyPath] = newValue }
    }

    /// The plugin's state and collaborators, read only.
    subscript<T>(dynamicMember keyPath: KeyPath<BackgroundServicePlugin, T>) -> T {
        @inline(__always) get { plugin[keyPath: keyPath] }
    }
}
