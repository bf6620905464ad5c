#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What ends a wait on the plugin's pipes even when the plugin cannot: a pipe that
/// ``PluginProcess/terminate()`` writes a byte to, and that every blocking wait on the
/// plugin's stdin, stdout and stderr polls beside its own pipe.
///
/// Killing the plugin's process group ends its pipes only if nothing outside the group
/// holds them: a child it started in a session or group of its own (`setsid`, or a
/// Foundation `Process`, which spawns into a new group) keeps the plugin's stdout open,
/// and a plain `read(2)` would then wait for ever. The byte is never read back, so once
/// written every wait sees it.
final class WakePipe: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init() throws(HostError) {
        var fds: [Int32] = [-1, -1]
        guard Libc.closeOnExecPipe(&fds) else {
            throw .launchFailed("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// Ends every wait, now and later.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Whether ``signal()`` has been called.
    var isSignalled: Bool {
        var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }

    /// Waits until `fd` is ready for `events` (or has hung up or failed); false when the
    /// wait ended because of ``signal()``.
    func wait(_ fd: Int32, for events: Int32) -> Bool {
        var entries = [
            pollfd(fd: fd, events: Int16(events), revents: 0), pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let n = poll(&entries, 2, -1)
            if n < 0, errno == EINTR { continue }
            if entries[1].revents != 0 { return false }
            return true
        }
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
