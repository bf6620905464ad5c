import HostProtocol
import PluginHost

/// How `demo` and `explain` end: one line saying whether every rule held, the problems
/// above it, and the exit status that goes with it (``ExitCode``).
///
/// ```swift
/// var verdict = HostCLI.Verdict()
/// verdict.held("3 tasks launched, each completed once")
/// verdict.add(.rule, "violations", "plugin counters: 3 violations")
/// Console.out(verdict.line)   // verdict: a rule broken: violations (exit 1)
/// ```
extension HostCLI {
    struct Verdict {
        /// How bad a problem is: what the exit status says.
        enum Kind: Int, Comparable, Sendable {
            /// Not the plugin's doing: a line of the user's input could not be used (exit 1).
            case input
            /// The plugin broke a rule of the contract (exit 1).
            case rule
            /// The plugin broke the transport, so the run could not be judged (exit 3).
            case transport
            /// The plugin did not start (exit 2).
            case start

            static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

            /// The exit status.
            var status: Int32 {
                switch self {
                case .input, .rule: ExitCode.failed
                case .transport: ExitCode.pluginMisbehaved
                case .start: ExitCode.pluginDidNotStart
                }
            }
        }

        /// One thing that went wrong.
        struct Problem: Sendable {
            /// How bad.
            let kind: Kind
            /// A word or two, for the verdict line ("answered twice").
            let name: String
            /// A sentence with the figures, for the line above it.
            let detail: String
        }

        /// What went wrong, in the order found.
        private(set) var problems: [Problem] = []
        /// What was checked and held, for the verdict line when nothing went wrong.
        private(set) var checked: [String] = []

        /// Records a problem.
        mutating func add(_ kind: Kind, _ name: String, _ detail: String) {
            problems.append(Problem(kind: kind, name: name, detail: detail))
        }

        /// Records what held, in words ("no protocol error").
        mutating func held(_ what: String) { checked.append(what) }

        /// The plugin's own count of the rules it saw broken (`counters.violations`).
        mutating func judge(_ counters: PluginStateSnapshot.Counters) {
            let n = counters.violations
            if n == 0 {
                held("violations 0")
            } else {
                add(.rule, "violations", "plugin counters: \(Self.count(n, "violation")) (its stderr says which)")
            }
        }

        /// The worst problem's kind; nil when every rule held.
        var worst: Kind? { problems.map(\.kind).max() }

        /// The exit status: 0 when every rule held.
        var status: Int32 { worst?.status ?? ExitCode.ok }

        /// The problems, one line each (empty when every rule held).
        var details: [String] { problems.map { "  - \($0.detail)" } }

        /// The one line: `verdict: every rule held (...)`, or what broke and the exit status:
        /// `verdict: a rule broken: violations (exit 1)`, `verdict: the plugin broke the
        /// transport: flooding (exit 3)`.
        var line: String {
            guard let worst else {
                return "verdict: every rule held" + (checked.isEmpty ? "" : " (\(checked.joined(separator: "; ")))")
            }
            var names: [String] = []
            for p in problems where !names.contains(p.name) { names.append(p.name) }
            let what =
                switch worst {
                case .input: "every rule held, but not every line of the input was used"
                case .rule: names.count == 1 ? "a rule broken" : "rules broken"
                case .transport: "the plugin broke the transport"
                case .start: "the plugin did not start"
                }
            return "verdict: \(what): \(names.joined(separator: ", ")) (exit \(status))"
        }

        /// `1 task`, `3 tasks`.
        static func count(_ n: Int, _ thing: String) -> String {
            "\(OutputMeter.count(n)) \(thing)\(n == 1 ? "" : "s")"
        }

        /// The verdict for machines: `{"held", "status", "problems": [{"kind", "name", "detail"}]}`.
        var json: JSONValue {
            [
                "held": .bool(problems.isEmpty),
                "status": .number(Int(status)),
                "problems": .array(
                    problems.map {
                        ["kind": .string("\($0.kind)"), "name": .string($0.name), "detail": .string($0.detail)]
                    }),
            ]
        }
    }
}
