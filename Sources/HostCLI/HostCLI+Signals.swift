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
