import Dispatch
import Foundation
import PluginHost

/// Stopping `plugin-host` stops its plugins: on SIGINT, SIGTERM or SIGHUP every plugin
/// it started is killed with whatever it forked, then the host ends as the signal
/// would have ended it (status 128 + the signal in a shell). A plugin in its own
/// process group (as `PluginProcess` starts it) does not see the terminal's Ctrl-C,
/// and one that ignores the end of its input would otherwise outlive the host.
extension HostCLI {
    private static let sources = SignalSources()

    /// Installs the handlers (once).
    static func stopPluginsOnSignals() {
        sources.install()
    }
}

private final class SignalSources: @unchecked Sendable {
    // Written once, under `once`, then only kept alive.
    private var installed: [DispatchSourceSignal] = []
    private let once = NSLock()

    func install() {
        once.lock()
        defer { once.unlock() }
        guard installed.isEmpty else { return }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                PluginProcess.killAllStarted()
                HostCLI.killOrphans()
                signal(sig, SIG_DFL)
                // Unblocked first: a dispatch worker (this thread) blocks signals, and so
                // may every thread of a host started with them blocked; raise() then left
                // the signal pending and the host ran on. Exit as a shell would say if not.
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, sig)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                raise(sig)
                _exit(128 + sig)
            }
            source.resume()
            installed.append(source)
        }
    }
}

/// Processes a plugin started outside its process group (a child in a session of its own,
/// which `PluginProcess`'s group kill cannot reach): `plugin-host` becomes their parent when
/// the plugin that started them ends (`PR_SET_CHILD_SUBREAPER`), and kills every such
/// orphan when it ends, so that nothing a plugin started outlives the host.
extension HostCLI {
    /// Makes this process the parent of its plugins' orphaned descendants (Linux).
    static func adoptOrphans() {
        #if os(Linux)
            // prctl(2) is not in Swift's Glibc module: looked up at run time.
            // PR_SET_CHILD_SUBREAPER is 36 (linux/prctl.h).
            typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "prctl") else { return }
            _ = unsafeBitCast(symbol, to: Prctl.self)(36, 1, 0, 0, 0)
        #endif
    }

    /// Kills every child of this process that is still alive (at the end of a command,
    /// once its plugins are closed: what is left are orphans a plugin started) and reaps it.
    static func killOrphans() {
        #if os(Linux)
            let me = getpid()
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            for pid in entries.compactMap(Int32.init) {
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { continue }
                // After "(comm)": state, ppid, ...
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 1, Int32(fields[1]) == me else { continue }
                kill(pid, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
            }
        #endif
    }
}
