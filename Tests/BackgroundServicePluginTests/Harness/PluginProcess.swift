import Foundation
import HostTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What one run of the plugin binary produced.
struct PluginRun: Sendable {
    /// Everything written to stdout.
    var stdout: [UInt8]
    /// Everything written to stderr.
    var stderr: String
    /// The exit status (or the signal number when killed by one).
    var status: Int32
    /// True when the run had to be killed by the harness's timeout.
    var timedOut: Bool

    /// stdout as lines, without their `\n` (a last unterminated line is kept).
    var lines: [String] {
        var parts = String(decoding: stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    /// stderr as lines.
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// The environment the built `background-service-plugin` runs with in these tests
/// (the binary itself is ``Binaries/plugin``).
enum Plugin {
    /// The environment a test plugin runs with: the tests' own, without `BSP_FAULT`,
    /// plus `extra`. Mutation check of this suite: `BSP_TEST_INJECT_FAULT=NAME swift
    /// test ...` runs every plugin deliberately broken; some tests must then fail.
    static func environment(adding extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "BSP_FAULT")
        if let fault = env.removeValue(forKey: "BSP_TEST_INJECT_FAULT"), !fault.isEmpty { env["BSP_FAULT"] = fault }
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Runs the plugin with `arguments`, feeds it `input`, closes stdin, and collects
    /// everything until it exits; kills it after `timeout` seconds (a hang). `executable`
    /// runs another copy of the binary.
    static func run(
        _ arguments: [String] = [], input: [UInt8], environment: [String: String] = [:], timeout: Double = 30,
        executable: String = Binaries.plugin
    ) throws -> PluginRun {
        let run = ProgramRun.run(
            executable, arguments, environment: Self.environment(adding: environment), input: input,
            hangLimit: .milliseconds(Int(timeout * 1000)))
        // A stream kept whole (64 MiB each way is far more than any test writes).
        return PluginRun(
            stdout: run.stdout.kept, stderr: run.stderr.text, status: run.signal ?? run.status, timedOut: run.hung)
    }

    /// Runs the plugin on a script of ndjson lines (each gets its `\n`).
    static func run(_ arguments: [String] = [], _ script: [String], environment: [String: String] = [:]) throws
        -> PluginRun
    {
        try run(arguments, input: Array(script.map { $0 + "\n" }.joined().utf8), environment: environment)
    }

    /// Runs a script and returns stdout's lines, checking that the plugin exited 0 in time.
    static func lines(
        _ arguments: [String] = [], _ script: [String], environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let result = try run(arguments, script, environment: environment)
        #expect(!result.timedOut, "the plugin hung", sourceLocation: sourceLocation)
        #expect(
            result.status == 0, "exit status \(result.status); stderr: \(result.stderr)", sourceLocation: sourceLocation
        )
        return result.lines
    }
}

/// A temporary file removed when the value is released.
final class TemporaryFile: Sendable {
    let path: String

    init(_ contents: String, suffix: String = ".plist") throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("bsp-test-\(UUID().uuidString)\(suffix)").path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Real XML property lists for `--info-plist`.
enum InfoPlistText {
    /// A plist with the given permitted identifiers and background modes; nil
    /// leaves the key out entirely.
    static func make(identifiers: [String]?, modes: [String]?) -> String {
        func array(_ key: String, _ values: [String]?) -> String {
            guard let values else { return "" }
            let items = values.map { "\t\t<string>\($0)</string>\n" }.joined()
            return "\t<key>\(key)</key>\n\t<array>\n\(items)\t</array>\n"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>CFBundleIdentifier</key>
            \t<string>com.example.app</string>
            \(array("BGTaskSchedulerPermittedIdentifiers", identifiers))\(array("UIBackgroundModes", modes))</dict>
            </plist>

            """
    }
}
