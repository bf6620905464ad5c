import Foundation
import HostProtocol

/// Where a process of the bench runs: the CPUs it may run on and the one it ran on
/// last, from /proc/PID/status (`Cpus_allowed_list`) and /proc/PID/stat (field 39,
/// `processor`). Read in the middle of a round, it shows whether host and plugin were
/// where the placement put them.
package struct ProcessCPU: Sendable, Equatable {
    /// `host`, `plugin`.
    package var role: String
    package var pid: Int32
    /// `Cpus_allowed_list` (`0-1`, `1`), nil when unreadable.
    package var allowed: String?
    /// The CPU it last ran on, nil when unreadable.
    package var lastCPU: Int?

    package init(role: String, pid: Int32, allowed: String?, lastCPU: Int?) {
        self.role = role
        self.pid = pid
        self.allowed = allowed
        self.lastCPU = lastCPU
    }

    /// Reads a process's placement now.
    package static func read(role: String, pid: Int32) -> ProcessCPU {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return ProcessCPU(role: role, pid: pid, allowed: allowedList(status: status), lastCPU: lastCPU(stat: stat))
    }

    /// `Cpus_allowed_list` of /proc/PID/status's text.
    package static func allowedList(status text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("Cpus_allowed_list:") {
            return line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// Field 39 (`processor`) of /proc/PID/stat's text. The command name (field 2) is in
    /// parentheses and may hold spaces and parentheses, so fields count from the last `)`.
    package static func lastCPU(stat text: String) -> Int? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let rest = text[text.index(after: close)...].split(separator: " ")
        // rest[0] is field 3 (state), so field 39 is rest[36].
        guard rest.count > 36 else { return nil }
        return Int(rest[36])
    }

    var json: JSONValue {
        [
            "role": .string(role), "pid": .number(Int(pid)), "allowed": allowed.map { .string($0) } ?? .null,
            "lastCPU": lastCPU.map { .number($0) } ?? .null,
        ]
    }

    var text: String {
        "\(role) pid \(pid): allowed CPUs \(allowed ?? "?"), last ran on \(lastCPU.map(String.init) ?? "?")"
    }
}

extension BenchRunner.Subjects {
    /// Where the host (this process's main thread) and the plugin measured run now.
    package func processCPUs() -> [ProcessCPU] {
        [ProcessCPU.read(role: "host", pid: getpid())]
            + [cancel.pid].compactMap { $0 }.map { ProcessCPU.read(role: "plugin", pid: $0) }
    }
}
