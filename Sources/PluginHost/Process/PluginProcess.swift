import Dispatch
import Foundation
import HostProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plugin binary as a child process over pipes: the process implementation of
/// ``PluginTransport``, and the one place the host starts processes.
///
/// It spawns the child (`posix_spawn`, pipes close-on-exec, nothing inherited but the
/// three pipes), reaps it on a thread blocked in `waitpid`, forwards its stderr line
/// by line with a prefix (the host's one stderr loop), and turns pipe faults into
/// ``HostError``s: a write to a plugin that has gone fails with its exit status.
/// ``close(grace:)`` closes stdin, waits, then sends SIGTERM and SIGKILL, and reaps.
///
/// ```swift
/// let plugin = try PluginProcess(options: .init(executable: path, arguments: ["--profile", "strict"]))
/// let connection = PluginConnection(transport: plugin)
/// ```
public final class PluginProcess: PluginTransport {
    /// What to start.
    public struct Options: Sendable {
        /// Path to the plugin executable.
        public var executable: String
        /// Its arguments.
        public var arguments: [String]
        /// Extra environment variables (added to the host's own environment).
        public var environment: [String: String]
        /// The framing used both ways (auto is not allowed on the host side).
        public var framing: Framing
        /// Largest frame accepted from the plugin.
        public var maxFrameBytes: Int
        /// Prefix for forwarded stderr lines.
        public var stderrPrefix: String

        /// Creates options.
        public init(
            executable: String, arguments: [String] = [], environment: [String: String] = [:],
            framing: Framing = .ndjson, maxFrameBytes: Int = 16 << 20, stderrPrefix: String = "[plugin] "
        ) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
            self.framing = framing
            self.maxFrameBytes = maxFrameBytes
            self.stderrPrefix = stderrPrefix
        }
    }

    /// What was started.
    public let options: Options
    /// The plugin's process id.
    public let pid: Int32
    /// Write end of the child's stdin (-1 once closed).
    let input: Mutex<Int32>
    /// Read end of the child's stdout (-1 once closed).
    let output: Atomic<Int32>
    private let reaper: Reaper
    /// Ends every wait on the pipes once the plugin is stopped (``terminate()``).
    let wake: WakePipe
    /// Signalled once the stderr loop has forwarded everything and ended.
    let stderrDone = DispatchSemaphore(value: 0)

    /// The framing given in the options.
    public var framing: Framing { options.framing }
    /// The largest frame accepted from the plugin (from the options).
    public var maxFrameBytes: Int { options.maxFrameBytes }

    /// Starts the plugin; its stderr lines, prefixed, go to `stderrLine` (by default
    /// the host's stderr). Fails clearly when the executable is missing or not executable.
    public init(
        options: Options,
        stderrLine: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) throws(HostError) {
        guard FileManager.default.fileExists(atPath: options.executable) else {
            throw .launchFailed("plugin binary not found at \(options.executable)")
        }
        guard FileManager.default.isExecutableFile(atPath: options.executable) else {
            throw .launchFailed("plugin binary at \(options.executable) is not executable")
        }
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in options.environment { environment[k] = v }
        wake = try WakePipe()
        let pipes = try PluginProcess.spawn(
            path: options.executable, arguments: options.arguments, environment: environment)
        self.options = options
        pid = pipes.pid
        input = Mutex(pipes.stdin)
        output = Atomic(pipes.stdout)
        _ = fcntl(pipes.stdin, F_SETFL, fcntl(pipes.stdin, F_GETFL) | O_NONBLOCK)
        PluginProcess.live.withLock { _ = $0.insert(pipes.pid) }
        reaper = Reaper(pid: pipes.pid)
        PluginProcess.forwardStderr(
            pipes.stderr, prefix: options.stderrPrefix, to: stderrLine, wake: wake, done: stderrDone)
    }

    /// How it ended, or nil while it runs.
    public var exitStatus: ExitStatus? { reaper.status }

    /// Waits until it has exited, up to `timeout`; returns the status or nil.
    public func waitForExit(timeout: Duration) -> ExitStatus? { reaper.wait(timeout: timeout.dispatchInterval) }

    /// Sends a signal to the plugin unless it has already been reaped.
    public func kill(_ signal: Int32 = SIGKILL) {
        if reaper.status == nil { _ = sendSignal(pid, signal) }
    }

    /// Kills the plugin and everything it forked (its process group) with SIGKILL, and
    /// ends every wait on its pipes, even one a process outside the group keeps open
    /// (``close(grace:)`` reaps it).
    public func terminate() {
        if reaper.status == nil { killGroup() }
        wake.signal()
    }

    /// SIGKILL to the plugin's process group: the plugin and whatever it started that
    /// is still in its group (a forked child holding its stdout open). Only while the
    /// plugin is unreaped (callers check) or just reaped by ``close(grace:)``, when its
    /// group id cannot have been reused.
    private func killGroup() {
        _ = sendSignal(-pid, SIGKILL)
    }

    /// Closes stdin, waits up to `grace` for the plugin to exit, then SIGTERM, then
    /// SIGKILL; reaps it and lets its stderr be forwarded to the end. Returns how it ended.
    @discardableResult
    public func close(grace: Duration) -> ExitStatus {
        closeInput()
        let status =
            waitForExit(timeout: grace)
            ?? {
                kill(SIGTERM)
                if let status = waitForExit(timeout: .milliseconds(500)) { return status }
                killGroup()
                return waitForExit(timeout: .seconds(60)) ?? .signaled(SIGKILL)
            }()
        // Whatever the plugin forked and left in its group goes with it: no process
        // outlives the plugin holding its pipes.
        killGroup()
        PluginProcess.live.withLock { _ = $0.remove(pid) }
        // A process outside the group could keep stderr open: wait for its end a little,
        // then end the loop.
        if stderrDone.wait(timeout: .now() + .seconds(2)) == .success {
            stderrDone.signal()
        } else {
            wake.signal()
        }
        return status
    }

    deinit {
        if reaper.status == nil {
            closeInput()
            killGroup()
        }
        wake.signal()
        PluginProcess.live.withLock { _ = $0.remove(pid) }
        let fd = output.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { Glibc.close(fd) }
    }
}

extension PluginProcess {
    /// The process groups of the plugins started and not yet closed.
    static let live = Mutex<Set<pid_t>>([])

    /// Kills every plugin this process started that has not ended, with everything they
    /// forked: for a host that is itself being stopped (SIGINT, SIGTERM), so that no
    /// plugin outlives it. Safe to call from any thread. (A plugin leaves this set when it
    /// is reaped, so a group id that could be reused is never signalled.)
    public static func killAllStarted() {
        for pid in live.withLock({ $0 }) { _ = sendSignal(-pid, SIGKILL) }
    }
}

#if canImport(Glibc)
    private let sendSignal = Glibc.kill
#elseif canImport(Darwin)
    private let sendSignal = Darwin.kill
#endif
