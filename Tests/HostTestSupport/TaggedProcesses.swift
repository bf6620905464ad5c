import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The processes a test started, found by a tag in their environment (plugins inherit
/// `plugin-host`'s environment, and so do whatever they fork): what is still running once
/// the command has ended is a process left behind.
///
/// ```swift
/// let tag = TaggedProcesses()
/// let r = try await runHost(["bench", ...], env: tag.environment(["HOSTILE_MODE": "silent"]))
/// #expect(tag.leftBehind().isEmpty)
/// ```
package struct TaggedProcesses: Sendable {
    /// The variable and its value, unique to this instance.
    package let name = "PLUGIN_TEST_TAG"
    package let value = UUID().uuidString

    /// A fresh tag.
    package init() {}

    /// `extra` with the tag added.
    package func environment(_ extra: [String: String]) -> [String: String] {
        extra.merging([name: value]) { a, _ in a }
    }

    /// The ids of the live processes that carry the tag (zombies have no environment).
    package func running() -> [Int32] {
        let needle = Array("\(name)=\(value)".utf8)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return data.split(separator: 0).contains { Array($0) == needle }
        }
    }

    /// The tagged processes still running after each has been given `grace` to end (a
    /// plugin's own child sees the end of its input only once the plugin has gone). The
    /// wait blocks on a pidfd (`pidfd_open`, then `poll`), it does not poll with sleeps.
    package func leftBehind(grace: Duration = .seconds(5)) -> [String] {
        for pid in running() { Self.waitForEnd(pid, within: grace) }
        return running().map { pid in
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map {
                String(decoding: $0.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            }
            return "\(pid) \(command ?? "?")"
        }
    }

    private static func waitForEnd(_ pid: Int32, within grace: Duration) {
        typealias PidfdOpen = @convention(c) (Int32, UInt32) -> Int32
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "pidfd_open") else { return }
        let fd = unsafeBitCast(symbol, to: PidfdOpen.self)(pid, 0)
        guard fd >= 0 else { return }  // gone already
        defer { close(fd) }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = Int32(grace.components.seconds * 1000 + grace.components.attoseconds / 1_000_000_000_000_000)
        _ = poll(&entry, 1, ms)
    }
}
