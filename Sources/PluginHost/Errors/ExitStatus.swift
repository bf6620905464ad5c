#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a child process ended.
public enum ExitStatus: Sendable, Hashable, CustomStringConvertible {
    /// It exited with this status code.
    case exited(Int32)
    /// A signal killed it.
    case signaled(Int32)

    /// Decodes a `waitpid` status word.
    init(waitStatus status: Int32) {
        if status & 0x7F == 0 {
            self = .exited((status >> 8) & 0xFF)
        } else {
            self = .signaled(status & 0x7F)
        }
    }

    /// True for `exited(0)`.
    public var isSuccess: Bool { self == .exited(0) }

    /// `exited with status N`, `was killed by signal N (NAME)`, ...
    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "was killed by signal \(signal) (\(ExitStatus.signalName(signal)))"
        }
    }

    /// `SIGKILL`, `SIGTERM`, ... for the common signals.
    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGHUP: "SIGHUP"
        case SIGINT: "SIGINT"
        case SIGQUIT: "SIGQUIT"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGBUS: "SIGBUS"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        case SIGSEGV: "SIGSEGV"
        case SIGPIPE: "SIGPIPE"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }
}
