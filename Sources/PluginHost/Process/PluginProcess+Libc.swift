#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `PluginProcess` needs from libc beyond what Swift imports: glibc declares
/// `pipe2` and `posix_spawn_file_actions_addclosefrom_np` only under `_GNU_SOURCE`,
/// so they are looked up at run time, with a fallback where they do not exist.
enum Libc {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutableRawPointer, Int32) -> Int32

    private static func lookUp<F>(_ name: String, as type: F.Type) -> F? {
        #if os(Linux)
            // RTLD_DEFAULT is a null handle on glibc and musl.
            guard let symbol = dlsym(nil, name) else { return nil }
            return unsafeBitCast(symbol, to: type)
        #else
            return nil
        #endif
    }

    private static let pipe2Function = lookUp("pipe2", as: Pipe2.self)
    private static let addCloseFromFunction = lookUp("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self)

    /// Whether pipes are created close-on-exec atomically and spawned children keep
    /// only their three pipes (glibc 2.34 and later).
    static var spawnsCleanly: Bool { pipe2Function != nil && addCloseFromFunction != nil }

    /// Creates a pipe whose two ends are close-on-exec: atomically with `pipe2`,
    /// else by `pipe` then `fcntl` (callers hold a lock across their spawns). True on success.
    static func closeOnExecPipe(_ fds: inout [Int32]) -> Bool {
        if let pipe2Function {
            return fds.withUnsafeMutableBufferPointer { pipe2Function($0.baseAddress!, O_CLOEXEC) } == 0
        }
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Adds "close every descriptor from `lowest` up" to a spawn's file actions,
    /// where the C library can (glibc 2.34 and later); elsewhere it does nothing.
    static func closeFrom(_ lowest: Int32, _ actions: inout posix_spawn_file_actions_t) {
        guard let addCloseFromFunction else { return }
        _ = withUnsafeMutablePointer(to: &actions) { addCloseFromFunction(UnsafeMutableRawPointer($0), lowest) }
    }
}
