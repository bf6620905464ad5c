import Foundation

/// The hostile-peer suite's matrix: every `plugin-host` subcommand against every way
/// `hostile-plugin` misbehaves, with the exit status each must end with
/// (`docs/reliability.md`, "Hostile peers"). `HostilePeerTests` runs it; CI runs the
/// cells of ``ciModes``, `scripts/hostile-peers.sh` all of them and prints the table.
enum HostilePeerMatrix {
    /// One subcommand, as a user would run it against a plugin at `plugin`, with the
    /// mode's `--timeout`.
    struct Subcommand: Sendable {
        let name: String
        let arguments: @Sendable (_ plugin: String, _ scratch: String, _ timeout: String) -> [String]
        /// The status for a mode that breaks nothing the subcommand looks at.
        var benign: Int32 = 0
    }

    /// A cell: a subcommand and a mode, with the status it must exit with.
    struct Cell: Sendable, CustomStringConvertible {
        let subcommand: Subcommand
        let mode: String
        let expected: Int32
        var description: String { "\(subcommand.name) × \(mode)" }
    }

    /// `--timeout` for a mode: 2 s where the plugin never answers (so that the run ends in
    /// seconds), 60 s elsewhere (a hang-catcher: a flood is stopped by its bound, and a run
    /// that should pass must not time out on a loaded machine).
    static func timeout(for mode: String) -> String {
        ["silent", "unknown-ids", "fork-holds-stdout", "setsid-holds-stdout"].contains(mode) ? "2" : "60"
    }

    /// Every cell (`HOSTILE_FULL` set), or the CI set.
    static let full = ProcessInfo.processInfo.environment["HOSTILE_FULL"] != nil

    static let subcommands: [Subcommand] = [
        Subcommand(name: "demo") { p, _, timeout in ["demo", "--plugin", p, "--timeout", timeout] },
        Subcommand(name: "explain") { p, scratch, timeout in
            ["explain", "--plugin", p, "--timeout", timeout, "--quiet", "--script", scratch + "/session.txt"]
        },
        Subcommand(name: "conformance") { p, _, timeout in
            ["conformance", "--plugin", p, "--timeout", timeout, "--profile", "seed", "--filter", "invoke.*"]
        },
        Subcommand(name: "fuzz") { p, scratch, timeout in
            ["fuzz", "--plugin", p, "--time", "2", "--timeout", timeout, "--seed", "1", "--out", scratch + "/out"]
        },
        Subcommand(name: "fuzz --level system") { p, scratch, timeout in
            [
                "fuzz", "--level", "system", "--profile", "strict", "--plugin", p, "--time", "2", "--timeout",
                timeout, "--seed", "1", "--out", scratch + "/out",
            ]
        },
        Subcommand(name: "replay") { p, _, timeout in
            ["replay", root + "/docs/findings/seed-d5-refresh.jsonl", "--plugin", p, "--timeout", timeout]
        },
        Subcommand(name: "bench") { p, _, timeout in
            [
                "bench", "--plugin", p, "--quick", "--timeout", timeout, "--calls", "200", "--fuzz-seconds", "0",
                "--system-seconds", "0",
            ]
        },
        Subcommand(name: "soak") { p, _, timeout in
            [
                "soak", "--plugin", p, "--timeout", timeout, "--invokes", "2000", "--fuzz-cases", "200", "--rounds",
                "2", "--warmup-rounds", "1", "--fault-trials", "0", "--growth-limit-kb", "65536",
            ]
        },
    ]

    /// Every mode of `hostile-plugin`.
    static let modes = [
        "flood", "flood-at-start", "silent", "slow-start", "start-fail", "exit-mid-frame", "answer-twice",
        "unknown-ids", "answer-notifications", "huge-line", "stderr-flood", "fork-holds-stdout", "setsid-holds-stdout",
        "escapes", "garbage",
    ]

    /// The modes CI runs against every subcommand (the subcommands' own tests cover the
    /// rest mode by mode; `scripts/hostile-peers.sh` runs them all here).
    static let ciModes: Set<String> = ["flood", "silent", "start-fail", "setsid-holds-stdout", "escapes"]

    /// The status a subcommand must end with against a mode.
    static func expected(_ sub: String, _ mode: String) -> Int32 {
        switch mode {
        case "start-fail": return 2
        case "flood", "flood-at-start", "silent", "exit-mid-frame", "unknown-ids", "huge-line",
            "fork-holds-stdout", "setsid-holds-stdout":
            return 3
        case "slow-start", "stderr-flood": return 0
        case "answer-twice", "garbage":
            // Conformance judges a second answer and a line that is not JSON as rules of
            // the contract's section 1-2: a failing check. Everyone else cannot trust the
            // transport any more.
            return sub == "conformance" ? 1 : 3
        case "answer-notifications":
            // Only a host that sends notifications and judges every frame sees the answers to
            // them: the plugin-level fuzzer. (The soak sends malformed frames on purpose, whose
            // id-null answers look the same; the system level and the demo send none.)
            return sub == "fuzz" ? 3 : 0
        case "escapes":
            // An extra event after each reply and changed error messages: a difference for the
            // plugin-level fuzzer and replay, which compare every frame, an unexpected frame for
            // the bench; the others show them escaped or ignore events they do not know.
            switch sub {
            case "fuzz", "replay": return 1
            case "bench": return 3
            default: return 0
            }
        default: return 0
        }
    }

    static func cells(all: Bool) -> [Cell] {
        subcommands.flatMap { sub in
            modes.filter { all || ciModes.contains($0) }.map { mode in
                Cell(subcommand: sub, mode: mode, expected: expected(sub.name, mode))
            }
        }
    }

    /// The package's root (for the committed traces).
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
        {
            url.deleteLastPathComponent()
        }
        return url.path
    }()
}
