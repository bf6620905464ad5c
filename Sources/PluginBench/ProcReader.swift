import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the kernel says about a process and the machine.
package enum ProcReader {
    /// `VmRSS`, `VmHWM`, `RssAnon` (the process's own memory) and `RssFile` (pages
    /// of its binary and shared libraries) of a process, in KiB, from /proc/PID/status.
    package static func memory(pid: Int32) -> (rssKB: Int, peakKB: Int, anonKB: Int, fileKB: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
                return Int(
                    line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
            }
            return nil
        }
        guard let rss = field("VmRSS"), let peak = field("VmHWM") else { return nil }
        return (rss, peak, field("RssAnon") ?? 0, field("RssFile") ?? 0)
    }

    /// The number of CPUs this process may run on.
    package static var cpuCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The kernel's release string.
    package static var kernel: String {
        (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?.trimmingCharacters(
            in: .whitespacesAndNewlines) ?? "unknown"
    }

    /// The one-minute load average (the machine state the figures were taken in).
    package static var loadAverage: Double {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return Double(text.split(separator: " ").first ?? "") ?? -1
    }

    /// The CPU model name.
    package static var cpuModel: String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
                ?? "unknown"
        }
        return "unknown"
    }

    /// Pins the calling thread (and the processes and threads it creates later) to
    /// one CPU with `sched_setaffinity` (looked up at run time: Glibc's Swift module
    /// does not export it).
    package static func pinToCPU(_ cpu: Int) -> Bool {
        var mask = [UInt8](repeating: 0, count: 128)  // a cpu_set_t: 1024 bits
        mask[cpu / 8] |= UInt8(1 << (cpu % 8))
        return setAffinity(mask)
    }

    /// Lets the calling thread run on every CPU again.
    package static func allowAllCPUs() -> Bool {
        var mask = [UInt8](repeating: 0, count: 128)
        for cpu in 0..<cpuCount { mask[cpu / 8] |= UInt8(1 << (cpu % 8)) }
        return setAffinity(mask)
    }

    private static func setAffinity(_ mask: [UInt8]) -> Bool {
        typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_setaffinity") else { return false }
        let call = unsafeBitCast(symbol, to: SetAffinity.self)
        return mask.withUnsafeBytes { call(0, $0.count, $0.baseAddress!) } == 0
    }
}
