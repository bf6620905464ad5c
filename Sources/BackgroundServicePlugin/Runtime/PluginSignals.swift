#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the plugin binary ends on a signal that asks it to stop: SIGTERM, SIGINT, SIGHUP
/// and SIGQUIT each write one line on stderr (`background-service-plugin: stopped by
/// SIGTERM`) and end the process by that signal, so that its parent sees it killed by
/// it (`plugin-host` reports "killed by signal 15"). Without these handlers SIGQUIT went
/// to the Swift runtime's crash handler, which printed "Program crashed" with registers
/// and a backtrace, and the plugin then kept serving and later exited 0.
///
/// Nothing is lost by stopping at once: every reply is written before the plugin reads
/// more input, so there is no output waiting in a buffer. SIGQUIT, whose default action
/// also writes a core file, stops the process without one.
enum PluginSignals {
    /// Installs the handlers (the binary only: an embedder's engine installs none), and
    /// unblocks the signals, which a process inherits blocked from the thread that spawned
    /// it (a test runner's worker thread blocks most signals: SIGTERM then did nothing).
    /// Call before starting any thread: threads inherit the mask.
    static func install() {
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signo in [SIGTERM, SIGINT, SIGHUP, SIGQUIT] {
            signal(signo, PluginSignals.stop)
            sigaddset(&unblock, signo)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// The handler: async-signal-safe calls only (`write`, `setrlimit`, `signal`, `raise`).
    private static let stop: @convention(c) (Int32) -> Void = { signo in
        let line: StaticString =
            switch signo {
            case SIGTERM: "background-service-plugin: stopped by SIGTERM\n"
            case SIGINT: "background-service-plugin: stopped by SIGINT\n"
            case SIGHUP: "background-service-plugin: stopped by SIGHUP\n"
            default: "background-service-plugin: stopped by SIGQUIT\n"
            }
        _ = write(2, line.utf8Start, line.utf8CodeUnitCount)
        if signo == SIGQUIT {
            var none = rlimit(rlim_cur: 0, rlim_max: 0)
            #if canImport(Glibc)
                _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
            #else
                _ = setrlimit(RLIMIT_CORE, &none)
            #endif
        }
        signal(signo, SIG_DFL)
        raise(signo)
    }
}
