import Foundation
import Synchronization

// Helpers shared by the test targets that run the built binaries: a regular
// target (not a test target), so that each test target can depend on it.

/// The built executables, found beside the test runner (`swift test` builds them).
package enum Binaries {
    package static var directory: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path).deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The plugin under test: `$BSP_PLUGIN_PATH` when set and not empty, else the built one.
    package static var plugin: String {
        if let path = ProcessInfo.processInfo.environment["BSP_PLUGIN_PATH"], !path.isEmpty { return path }
        return directory.appendingPathComponent("background-service-plugin").path
    }

    package static var host: String { directory.appendingPathComponent("plugin-host").path }

    /// The plugin that misbehaves as `HOSTILE_MODE` says (`Tests/HostilePlugin`), for the hostile-peer suite.
    package static var hostilePlugin: String { directory.appendingPathComponent("hostile-plugin").path }

    /// The conformance suite's second plugin (`Tests/ConformanceDouble`), built for its tests only.
    package static var conformanceDouble: String { directory.appendingPathComponent("conformance-double").path }
}

/// Runs blocking work on its own thread, so that the test's cooperative thread is not held.
package func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do {
                continuation.resume(returning: try body())
            } catch {
                continuation.resume(throwing: error)
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// A box for values produced inside host tasks.
package final class Box<T: Sendable>: Sendable {
    private let value: Mutex<T>
    package init(_ initial: T) { value = Mutex(initial) }
    package func set(_ v: T) { value.withLock { $0 = v } }
    package func update(_ f: (inout T) -> Void) { value.withLock { f(&$0) } }
    package var get: T { value.withLock { $0 } }
}

/// Whether a process id still names a process (a zombie counts).
package func processExists(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
}

/// Runs plugin-host with arguments (and extra environment variables) on its own
/// thread; returns its status and output, stderr drained alongside stdout.
package func runHost(_ arguments: [String], env: [String: String] = [:]) async throws -> (
    status: Int32, stdout: String, stderr: String
) {
    try await runProgram(Binaries.host, arguments, env: env)
}

/// Runs a built program with arguments, extra environment variables and `input` on
/// its stdin (closed at once when nil); returns its status and output (``ProgramRun``).
package func runProgram(
    _ path: String, _ arguments: [String], env: [String: String] = [:], input: String? = nil
) async throws -> (status: Int32, stdout: String, stderr: String) {
    try await onThread {
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in env { environment[k] = v }
        let r = ProgramRun.run(path, arguments, environment: environment, input: Array((input ?? "").utf8))
        return (r.status, r.stdout.text, r.stderr.text)
    }
}

/// The first of `milestones` that `text` does not contain after the previous one (nil: all, in order).
package func firstMissing(_ milestones: [String], inOrderIn text: String) -> String? {
    var position = text.startIndex
    for m in milestones {
        guard let found = text.range(of: m, range: position..<text.endIndex) else { return m }
        position = found.upperBound
    }
    return nil
}

/// What `body` writes to this process's stderr (fd 2), taken from it for the moment
/// `body` runs (other threads' lines in that moment are taken too). Short output only:
/// the pipe holds 64 KiB.
package func capturingStandardError(_ body: () -> Void) -> String {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return "" }
    let saved = dup(2)
    dup2(fds[1], 2)
    body()
    dup2(saved, 2)
    close(saved)
    close(fds[1])
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case let n = read(fds[0], &buffer, buffer.count), n > 0 { bytes += buffer[0..<n] }
    close(fds[0])
    return String(decoding: bytes, as: UTF8.self)
}
