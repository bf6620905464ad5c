import Foundation
import HostProtocol
import PluginHost
import Testing

@testable import PluginConformance

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `plugin-host conformance` as a command: formats, filter, list, exit codes.
@Suite("plugin-host conformance")
struct ConformanceCommandTests {
    @Test func textPassesWithExitZero() async throws {
        let r = try await ConformanceHarness.host(["conformance", "--filter", "jsonrpc.batch"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let batchChecks = ConformanceCatalogue.all.filter { $0.name.contains("jsonrpc.batch") }
        #expect(r.stdout.contains("\(batchChecks.count * 2) passed, 0 failed"))
        #expect(r.stdout.contains("jsonrpc.batch.empty"))
        #expect(!r.stdout.contains("FAIL"))
        // Progress on stderr though it is a pipe: what runs, then lines as checks finish.
        let progress = r.stderr.split(separator: "\n")
        #expect(
            progress.first?.hasPrefix("plugin-host conformance: running \(batchChecks.count * 2) check(s) against ")
                == true, "\(r.stderr)")
        let runs = batchChecks.count * 2
        let last = String(progress.last ?? "")
        #expect(last.hasPrefix("plugin-host conformance: [\(runs)/\(runs)] \(runs) passed, 0 failed, 0 skipped, "))
        #expect(last.hasSuffix(" s so far"))
    }

    @Test func aFailureExitsOneAndShowsTheDiff() async throws {
        let r = try await ConformanceHarness.host(
            ["conformance", "--filter", "jsonrpc.batch.mixed", "--profile", "seed"],
            environment: ["BSP_FAULT": "batch-reversed"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("FAIL jsonrpc.batch.mixed [seed]: reply 1 of 1 differs"))
        #expect(r.stdout.contains("→ [{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"cancelCancelListener\"}"))
        #expect(r.stdout.contains("diff (- expected, + actual):"))
        #expect(r.stdout.contains("- [{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":null}"))
        #expect(r.stdout.contains("+ [{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"now\":2}}"))
        #expect(r.stdout.hasSuffix("0 passed, 1 failed, 0 skipped, 0 xfail\n"))
    }

    @Test func usageErrorsExit64() async throws {
        let cases = [
            ["--format", "yaml"], ["--bogus"], ["--profile", "both", "--jobs", "0"], ["--filter", "no.such.check"],
            ["extra"], ["--format", "markdown"], ["--plugin"], ["--list", "--format", "junit"],
            ["--plugin", "/nonexistent/plugin"],
        ]
        for args in cases {
            let r = try await ConformanceHarness.host(["conformance"] + args)
            #expect(r.status == 64, "\(args): \(r.status)")
            #expect(r.stderr.hasPrefix("plugin-host conformance: "), "\(args)")
            #expect(r.stderr.hasSuffix("see `plugin-host conformance --help`\n"), "\(args)")
            #expect(r.stdout.isEmpty)
        }
        let help = try await ConformanceHarness.host(["conformance", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--format text|json|junit"))
    }

    @Test func listAndFilter() async throws {
        let all = try await ConformanceHarness.host(["conformance", "--list"])
        #expect(all.status == 0)
        for check in ConformanceCatalogue.all { #expect(all.stdout.contains(check.name + " ")) }
        let runs = ConformanceCatalogue.runs(of: ConformanceCatalogue.all, profile: nil).count
        #expect(all.stdout.contains("\(ConformanceCatalogue.all.count) checks, \(runs) runs"))

        let glob = try await ConformanceHarness.host([
            "conformance", "--list", "--format", "json", "--filter", "profile.strict.*",
        ])
        let names = try JSONParser.parse(Array(glob.stdout.utf8)).arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(
            names == [
                "profile.strict.wrong-type-rejected", "profile.strict.superseded-rejected",
                "profile.strict.success-not-bool-rejected",
            ])
        let state = try await ConformanceHarness.host([
            "conformance", "--list", "--format", "json", "--filter", "session.plugin-state.initial",
        ])
        let accepts = try JSONParser.parse(Array(state.stdout.utf8)).arrayValue?.first?["accepts"]?.arrayValue ?? []
        #expect(accepts.contains("result: pendingRequests: the items in any order"))

        #expect(ConformanceCatalogue.matches(name: "timer.refresh.fires-at-deadline", pattern: "timer.*.fires-*"))
        #expect(ConformanceCatalogue.matches(name: "timer.refresh.fires-at-deadline", pattern: "*deadline"))
        #expect(!ConformanceCatalogue.matches(name: "timer.refresh.fires-at-deadline", pattern: "refresh*"))
        #expect(ConformanceCatalogue.matches(name: "timer.refresh.fires-at-deadline", pattern: "refresh"))
        #expect(ConformanceCatalogue.matching("session.shutdown").count == 2)
    }

    @Test func profileChoiceRunsOnlyThatProfile() async throws {
        let r = try await ConformanceHarness.host([
            "conformance", "--filter", "superseded", "--profile", "strict", "--format", "json",
        ])
        #expect(r.status == 0)
        let report = try JSONParser.parse(Array(r.stdout.utf8))
        let checks = report["checks"]?.arrayValue ?? []
        #expect(checks.map { $0["name"]?.stringValue } == ["profile.strict.superseded-rejected"])
        #expect(checks.allSatisfy { $0["profile"] == "strict" && $0["result"] == "pass" })
        #expect(report["summary"]?["passed"]?.int64Value == 1)
        #expect(r.stderr.contains("1 passed, 0 failed"))
    }

    @Test func junitIsValidXMLWithTheRightCounts() async throws {
        let r = try await ConformanceHarness.host(
            ["conformance", "--filter", "jsonrpc.batch", "--format", "junit"],
            environment: ["BSP_FAULT": "batch-reversed"])
        #expect(r.status == 1)
        let collector = JUnitCollector()
        let parser = XMLParser(data: Data(r.stdout.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
        let expected = ConformanceCatalogue.all.filter { $0.name.contains("jsonrpc.batch") }.count * 2
        #expect(collector.root["tests"] == String(expected))
        #expect(collector.suites.map { $0["name"] } == ["conformance.seed", "conformance.strict"])
        #expect(collector.cases.count == expected)
        #expect(collector.failures.count == Int(collector.root["failures"] ?? "") && collector.failures.count >= 6)
        #expect(
            collector.failures.contains {
                $0.contains("FAIL jsonrpc.batch.mixed [seed]") && $0.contains("diff (- expected, + actual)")
            })
        #expect(collector.cases.allSatisfy { $0["classname"]?.hasPrefix("conformance.") == true && $0["time"] != nil })
    }

    @Test func jsonReportCarriesTheFailure() async throws {
        let r = try await ConformanceHarness.host(
            ["conformance", "--filter", "shutdown.rejects", "--format", "json"],
            environment: ["BSP_FAULT": "shutdown-no-reject"])
        #expect(r.status == 1)
        let report = try JSONParser.parse(Array(r.stdout.utf8))
        #expect(report["summary"]?["failed"]?.int64Value == 2)
        let failure = try #require(report["checks"]?.arrayValue?.first?["failure"])
        #expect(failure["step"]?.int64Value == 2)
        #expect(failure["expected"]?.arrayValue?.count == 2)
        #expect(failure["actual"]?.arrayValue?.count == 1)
    }
}

/// Collects the JUnit elements and failure texts.
final class JUnitCollector: NSObject, XMLParserDelegate, @unchecked Sendable {
    var root: [String: String] = [:]
    var suites: [[String: String]] = []
    var cases: [[String: String]] = []
    var failures: [String] = []
    var skipped: [[String: String]] = []
    private var inFailure = false
    private var text = ""

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch name {
        case "testsuites": root = attributes
        case "testsuite": suites.append(attributes)
        case "testcase": cases.append(attributes)
        case "skipped": skipped.append(attributes)
        case "failure":
            inFailure = true
            text = ""
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inFailure { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "failure" {
            failures.append(text)
            inFailure = false
        }
    }
}
