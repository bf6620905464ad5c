import Foundation
import HostProtocol
import Testing

@testable import PluginConformance

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `--expected-failures FILE`: the baseline's formats, its errors, and what it does to a run.
@Suite("expected failures")
struct ExpectedFailuresTests {
    static let known: Set<String> = ["a.b", "c.d", "profile.strict.x"]

    func parse(_ text: String) throws(ExpectedFailures.ParseError) -> [ExpectedFailures.Entry] {
        try ExpectedFailures.parse(text, known: Self.known).entries
    }

    @Test func yamlSubset() throws {
        let text = """
            # known failures
            expected-failures:
              - a.b            # any profile
              - "c.d"
              - check: profile.strict.x
                profile: strict
                reason: 'dropped, not rejected: it''s #12'

            """
        #expect(
            try parse(text) == [
                .init(check: "a.b"), .init(check: "c.d"),
                .init(check: "profile.strict.x", profile: .strict, reason: "dropped, not rejected: it's #12"),
            ])
        #expect(try parse("expected-failures: []\n").isEmpty)
        #expect(try parse("# nothing yet\n").isEmpty)
        #expect(
            try parse("- check: a.b\n  profile: seed\n- c.d\n") == [
                .init(check: "a.b", profile: .seed), .init(check: "c.d"),
            ])
    }

    @Test func json() throws {
        #expect(
            try parse(#"["a.b", {"check": "c.d", "profile": "seed", "reason": "r"}]"#)
                == [.init(check: "a.b"), .init(check: "c.d", profile: .seed, reason: "r")])
        #expect(try parse(#"{"expected-failures": ["a.b"]}"#) == [.init(check: "a.b")])
    }

    @Test(arguments: [
        ("- no.such.check\n", "line 1: no check is named \"no.such.check\" (see --list)"),
        ("- check: a.b\n  profile: both\n", "line 1: unknown profile \"both\" (seed or strict)"),
        ("- check: a.b\n  why: x\n", "line 1: unknown key \"why\" (an entry has check, profile and reason)"),
        ("- {check: a.b}\n", "line 1: \"{\" starts YAML this reader does not take (flow, anchors, blocks)"),
        ("a.b\n", "line 1: not a list item (\"- check.id\") nor a key of one: a.b"),
        ("- a.b\n  profile: seed\n", "line 2: not a list item (\"- check.id\") nor a key of one: profile: seed"),
        ("- \"a.b\n", "line 1: unterminated double-quoted scalar"),
        ("- a.b\n   - c.d\n", "line 2: list items must all be indented alike"),
        ("- profile: seed\n", "line 1: an entry needs a check id"),
        ("[1]", "entry 1 is neither a check id nor an object"),
        ("{\"x\": 1}", "expected an array of entries (or {\"expected-failures\": [...]})"),
        ("[\"a.b\"", "not valid JSON"),
        (
            "expected-failures: []\n- a.b\n",
            "line 2: line 1 says the list is empty (\"expected-failures: []\"), but more follows"
        ),
        (
            "expected-failures: []\r\n  - a.b\r\n",
            "line 2: line 1 says the list is empty (\"expected-failures: []\"), but more follows"
        ),
        ("- a.b\n- c.d\n- a.b\n", "line 3: \"a.b\" is listed twice (first at line 1)"),
        ("- check: a.b\n  profile: seed\n- a.b\n", "line 3: \"a.b\" is listed twice (first at line 1)"),
        (
            "- a.b\r\n- check: a.b\r\n  profile: strict\r\n",
            "line 2: \"a.b\" (strict) is listed twice (first at line 1)"
        ),
        (
            #"["a.b", {"check": "a.b", "profile": "seed"}]"#,
            "entry 2: \"a.b\" (seed) is listed twice (first at entry 1)"
        ),
    ])
    func errors(text: String, message: String) {
        #expect(throws: ExpectedFailures.ParseError.self) { try parse(text) }
        do {
            _ = try parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    /// A file written on Windows reads as the same file written elsewhere (it used to be
    /// one entry named after the whole file).
    @Test func crlfLineEndsReadAlike() throws {
        let unix = """
            # known failures
            expected-failures:
              - a.b   # any profile
              - "c.d"
              - check: profile.strict.x
                profile: strict
                reason: 'it''s #12'

            """
        let windows = unix.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(windows.contains("\r\n"))
        #expect(try parse(windows) == parse(unix))
        #expect(try parse(windows).count == 3)
        #expect(try parse("\u{FEFF}- a.b\r\n- c.d") == [.init(check: "a.b"), .init(check: "c.d")])
        #expect(try parse("- a.b\r- c.d\r") == [.init(check: "a.b"), .init(check: "c.d")])
        #expect(try parse("[\"a.b\",\r\n \"c.d\"]\r\n") == [.init(check: "a.b"), .init(check: "c.d")])
        #expect(try parse("expected-failures: []\r\n# nothing yet\r\n").isEmpty)
    }

    /// Whatever the bytes, a baseline is parsed or refused with a message, never a
    /// crash: 3,000 texts made of YAML's and JSON's special characters (seeded, so a
    /// failure can be replayed).
    @Test func malformedBaselinesAreRefusedNeverCrash() {
        let alphabet = Array("- :#'\"\\[]{}&*!|>%@`\t\r\n abc.dprofile:check:reason:seedstrict\u{FEFF}\u{1B}é")
        var rng = SplitMix(seed: 26)
        var refused = 0
        for _ in 0..<3000 {
            let length = Int(rng.next() % 60)
            let text = String((0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
            do {
                _ = try ExpectedFailures.parse(text, known: Self.known)
            } catch {
                refused += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(refused > 1000)
    }

    @Test func failuresBecomeXfailAndPassesBecomeStale() {
        func outcome(_ name: String, _ profile: Profile, _ status: CheckOutcome.Status) -> CheckOutcome {
            CheckOutcome(
                name: name, profile: profile, section: 2, rule: "r", status: status,
                reason: status == .failed ? "reply 1 of 1 differs" : status == .skipped ? "skipped (x)" : nil,
                failure: nil, seconds: 0)
        }
        let baseline = ExpectedFailures([.init(check: "a.b"), .init(check: "c.d", profile: .strict, reason: "known")])
        let outcomes = baseline.apply(to: [
            outcome("a.b", .seed, .failed), outcome("a.b", .strict, .passed),
            outcome("c.d", .seed, .failed), outcome("c.d", .strict, .failed), outcome("e.f", .seed, .failed),
            outcome("a.b", .seed, .skipped),
        ])
        #expect(outcomes.map(\.status) == [.xfail, .stale, .failed, .xfail, .failed, .skipped])
        #expect(outcomes[3].reason == "expected failure (known): reply 1 of 1 differs")
        #expect(outcomes[1].reason?.contains("remove the entry") == true)
        let summary = ConformanceSummary(outcomes)
        #expect(summary.line == "0 passed, 3 failed, 1 skipped, 2 xfail (1 stale)")
    }

    /// Against a mutant: its failures listed in the baseline make the run pass; without
    /// the mutant the same baseline is stale and fails the run. JUnit marks both.
    @Test func theCommandAppliesTheBaseline() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "conformance-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("baseline.yml").path
        try "- jsonrpc.batch.mixed\n- check: jsonrpc.batch.in-order\n  profile: seed\n".write(
            toFile: file, atomically: true, encoding: .utf8)

        let filter = ["conformance", "--filter", "jsonrpc.batch.*-order", "--expected-failures", file]
        let mutant = try await ConformanceHarness.host(
            ["conformance", "--filter", "jsonrpc.batch.mixed", "--profile", "seed", "--expected-failures", file],
            environment: ["BSP_FAULT": "batch-reversed"])
        #expect(mutant.status == 0, "\(mutant.stdout)")
        #expect(mutant.stdout.contains("jsonrpc.batch.mixed  seed     xfail    expected failure: reply 1 of 1 differs"))
        #expect(mutant.stdout.hasSuffix("0 passed, 0 failed, 0 skipped, 1 xfail\n"))

        let clean = try await ConformanceHarness.host(filter + ["--format", "junit"])
        #expect(clean.status == 1)
        #expect(clean.stderr.contains("1 passed, 1 failed, 0 skipped, 0 xfail (1 stale)"), "\(clean.stderr)")
        #expect(clean.stdout.contains(#"<failure message="listed in --expected-failures but passed"#))

        let junit = try await ConformanceHarness.host(
            filter + ["--format", "junit"], environment: ["BSP_FAULT": "batch-reversed"])
        let collector = JUnitCollector()
        let parser = XMLParser(data: Data(junit.stdout.utf8))
        parser.delegate = collector
        #expect(parser.parse())
        #expect(junit.status == 1, "the strict run of in-order is not in the baseline")
        #expect(collector.skipped.map { $0["type"] } == ["xfail"])
        #expect(collector.root["skipped"] == "1" && collector.root["failures"] == "1")

        let bad = try await ConformanceHarness.host([
            "conformance", "--expected-failures", dir.appendingPathComponent("none").path,
        ])
        #expect(bad.status == 64 && bad.stderr.contains("--expected-failures: cannot read"))

        // A CRLF baseline works as the LF one did; a device, a directory and bad YAML are usage errors.
        let crlf = dir.appendingPathComponent("crlf.yml").path
        try "- jsonrpc.batch.mixed\r\n".write(toFile: crlf, atomically: true, encoding: .utf8)
        let windows = try await ConformanceHarness.host(
            ["conformance", "--filter", "jsonrpc.batch.mixed", "--profile", "seed", "--expected-failures", crlf],
            environment: ["BSP_FAULT": "batch-reversed"])
        #expect(windows.status == 0 && windows.stdout.hasSuffix("0 passed, 0 failed, 0 skipped, 1 xfail\n"))
        let malformed = dir.appendingPathComponent("bad.yml").path
        try "expected-failures: []\n- jsonrpc.batch.mixed\n".write(toFile: malformed, atomically: true, encoding: .utf8)
        for (path, message) in [
            ("/dev/zero", "larger than 1 MiB"), (dir.path, "cannot read"), (malformed, "line 2: line 1 says"),
        ] {
            let r = try await ConformanceHarness.host(["conformance", "--expected-failures", path])
            #expect(r.status == 64 && r.stderr.contains(message), "\(path): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }
}

/// A small seeded generator (SplitMix64), for inputs a failing test can replay.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
