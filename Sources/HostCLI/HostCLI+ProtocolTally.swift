import HostProtocol
import PluginHost

extension HostCLI {
    /// A count, and the first few examples.
    struct Sample: Sendable {
        /// How many examples it keeps.
        let keeping: Int
        private(set) var count = 0
        private(set) var first: [String] = []

        /// An empty sample that keeps `keeping` examples.
        init(keeping: Int = 5) { self.keeping = keeping }

        mutating func add(_ example: String) {
            count += 1
            if first.count < keeping { first.append(example) }
        }

        /// `#1, #2, #3` or `#1, #2, #3, #4, #5 and 57 more`.
        var text: String { text(separator: ", ") }

        /// The examples joined with `separator`, and how many more there were.
        func text(separator: String) -> String {
            first.joined(separator: separator) + (count > first.count ? " and \(count - first.count) more" : "")
        }
    }

    /// What a plugin wrote that breaks the protocol, counted as it comes: answers to a
    /// request already answered, answers to ids nobody sent, and every other protocol
    /// error the connection reported. Bounded: the first few of each are kept for the
    /// report, the rest only counted; the ids it remembers are those the host sent.
    ///
    /// Fed in wire order (a timeline, or a connection's tap): each request written, each
    /// response read, each protocol error. The connection reports a response nobody waits
    /// for as a protocol error of its own right after the response; that report is not
    /// counted twice.
    struct ProtocolTally: Sendable {
        private var sent: Set<RequestID> = []
        private var answered: Set<RequestID> = []
        /// Protocol errors still to come that only restate a stray response.
        private var restated = 0
        /// Ids answered again.
        private(set) var twice = Sample()
        /// Answers with an id the host never sent.
        private(set) var unknown = Sample()
        /// Every other protocol error, in the connection's words.
        private(set) var errors = Sample()

        /// How the connection's report of a flooding plugin begins (``HostError/flooding(_:)``).
        static let floodingWords = HostError.flooding("\u{0}").description.components(separatedBy: "\u{0}")[0]

        /// A request the host wrote.
        mutating func sent(_ id: RequestID) { sent.insert(id) }

        /// A response the plugin wrote.
        mutating func answered(_ id: RequestID) {
            if answered.contains(id) {
                twice.add("#\(TerminalText.oneLine(id.description, limit: 80))")
                restated += 1
            } else if !sent.contains(id) {
                unknown.add(TerminalText.oneLine(id.description, limit: 80))
                restated += 1
            } else {
                answered.insert(id)
            }
        }

        /// A protocol error the connection reported (the plugin has been stopped, unless
        /// it only restates a stray response).
        mutating func protocolError(_ text: String) {
            if restated > 0 {
                restated -= 1
            } else {
                errors.add(TerminalText.oneLine(text, limit: 300))
            }
        }

        /// Adds what it found to `verdict` (a transport problem each), leaving out a
        /// protocol error that `stoppedBy` (why the run stopped early) already says.
        func report(into verdict: inout Verdict, stoppedBy: String? = nil) {
            if twice.count > 0 {
                verdict.add(
                    .transport, "answered twice",
                    "the plugin answered \(Verdict.count(twice.count, "request")) twice: \(twice.text)")
            }
            if unknown.count > 0 {
                verdict.add(
                    .transport, "unknown ids",
                    "the plugin wrote \(Verdict.count(unknown.count, "response")) to ids nobody sent: \(unknown.text)")
            }
            let restating = errors.first.filter { text in stoppedBy.map { $0.contains(text) } ?? false }
            if errors.count > restating.count {
                let flooding = errors.first.contains { $0.hasPrefix(Self.floodingWords) }
                verdict.add(
                    .transport, flooding ? "flooding" : "protocol error",
                    "\(Verdict.count(errors.count, "protocol error")) from the plugin: \(errors.text)")
            }
            if twice.count + unknown.count + errors.count == 0 {
                verdict.held("no protocol error, no answer twice or to an unknown id")
            }
        }
    }
}
