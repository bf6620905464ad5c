import Testing

@testable import PluginHost

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A spawned plugin inherits nothing but its three pipes: a descriptor the host
/// opened without close-on-exec (as Foundation's `Pipe` does) would otherwise keep
/// another process's pipe open in the plugin, so that it never saw EOF.
@Suite("Child process")
struct ChildProcessTests {
    /// The descriptors the child sees, listed by a shell that only echoes.
    static func childDescriptors() throws -> [String] {
        let child = try PluginProcess(
            options: .init(executable: "/bin/sh", arguments: ["-c", "cd /proc/self/fd && echo *"]),
            stderrLine: { _ in })
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { child.receive(into: $0) }
            if n == 0 { break }
            output += buffer[..<n]
        }
        #expect(child.close(grace: .seconds(20)) == .exited(0))
        return String(decoding: output, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).map(
            String.init)
    }

    @Test func aChildInheritsOnlyItsPipes() throws {
        var leaky: [Int32] = [-1, -1]
        #expect(pipe(&leaky) == 0)  // not close-on-exec
        defer { for fd in leaky { close(fd) } }
        let seen = try Self.childDescriptors()
        #expect(
            !seen.contains(String(leaky[0])) && !seen.contains(String(leaky[1])),
            "the child inherited \(leaky): it sees \(seen)")
        #expect(seen.contains("0") && seen.contains("1") && seen.contains("2"))
    }

    @Test func pipesAreCloseOnExecFromBirth() {
        #if os(Linux)
            #expect(Libc.spawnsCleanly, "pipe2 or posix_spawn_file_actions_addclosefrom_np not found")
        #endif
        var fds: [Int32] = [-1, -1]
        #expect(Libc.closeOnExecPipe(&fds))
        defer { for fd in fds { close(fd) } }
        for fd in fds { #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0) }
    }
}
