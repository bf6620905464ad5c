import Dispatch
import Foundation
import HostProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reaps a child on a dedicated thread that blocks in `waitpid`, and remembers how it
/// ended. Held apart from the process object, so that dropping that object can kill
/// a child that is still running.
final class Reaper: Sendable {
    private let state = Mutex<ExitStatus?>(nil)
    private let exited = DispatchSemaphore(value: 0)
    private let pid: pid_t

    init(pid: pid_t) {
        self.pid = pid
        let thread = Thread { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            // Out of the set before the status is known, so that nobody signals the group
            // of a reaped plugin from it.
            PluginProcess.live.withLock { _ = $0.remove(pid) }
            state.withLock { $0 = ExitStatus(waitStatus: status) }
            exited.signal()
        }
        thread.name = "plugin-reaper"
        thread.start()
    }

    var status: ExitStatus? { state.withLock { $0 } }

    func wait(timeout: DispatchTimeInterval) -> ExitStatus? {
        if let status { return status }
        guard exited.wait(timeout: .now() + timeout) == .success else { return peek() }
        exited.signal()  // let other waiters through too
        return status
    }

    /// How the child ended if it has, without reaping it (the reaper thread still does):
    /// on a loaded machine the child can be a zombie well before the reaper thread is
    /// scheduled, and a caller that has seen the child's output end should not report
    /// "no status" for that reason alone.
    private func peek() -> ExitStatus? {
        Reaper.peekStatus(of: pid) ?? status
    }

    /// The status of a child that has ended and not been reaped yet, left reapable
    /// (`waitid` with `WNOWAIT`); nil while it runs or once it has been reaped.
    static func peekStatus(of pid: pid_t) -> ExitStatus? {
        #if canImport(Glibc)
            var info = siginfo_t()
            guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
                info._sifields._sigchld.si_pid == pid
            else { return nil }
            let code = info._sifields._sigchld.si_status
            return info.si_code == Int32(CLD_EXITED) ? .exited(code) : .signaled(code)
        #else
            return nil
        #endif
    }
}
