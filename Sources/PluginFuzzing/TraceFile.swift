import Foundation
import HostProtocol
import PluginHost

/// A replayable trace: JSON Lines. The first line describes the run and the
/// finding; then one line per step with what was sent, what the model expected
/// and what the plugin wrote (plugin level), or one line per system action
/// (system level); `plugin-host replay FILE` re-runs it. In the example the
/// first line is wrapped; in the file it is one line.
///
/// ```
/// {"explanation":"...","finding":"...","kind":"header","level":"plugin",
///  "pluginArguments":["--profile","seed"],"profile":"seed","seed":7,"version":1}
/// {"actual":[...],"expected":[...],"index":0,"kind":"step","send":{"id":1,"jsonrpc":"2.0","method":"waitForCancel"}}
/// ```
public struct TraceFile: Sendable {
    /// The first line.
    public struct Header: Sendable {
        /// `plugin` or `system`.
        public var level: String
        /// The plugin's profile (and, at system level, the host's behaviour).
        public var profile: Profile
        /// The run's seed.
        public var seed: UInt64
        /// The finding's signature.
        public var finding: String
        /// A paragraph on what the trace shows.
        public var explanation: String
        /// The plugin's arguments when it was recorded.
        public var pluginArguments: [String]
        /// System level: the scenario (services, config, pool, race orders) and the violations.
        public var extra: [String: JSONValue]

        /// The header line (with `kind`, `version` and the build).
        public var json: JSONValue {
            var o: [String: JSONValue] = [
                "kind": "header", "version": 1, "level": .string(level), "profile": .string(profile.rawValue),
                "seed": .number(JSONNumber(literal: String(seed))!), "finding": .string(finding),
                "explanation": .string(explanation), "pluginArguments": .array(pluginArguments.map { .string($0) }),
                "build": .string(BuildInfo.configuration),
            ]
            for (k, v) in extra { o[k] = v }
            return .object(o)
        }
    }

    /// The first line.
    public var header: Header
    /// One JSON object per step (without the `kind` member, added when written).
    public var lines: [JSONValue]

    /// Creates a trace.
    public init(header: Header, lines: [JSONValue]) {
        self.header = header
        self.lines = lines
    }

    /// The file's text.
    public var text: String {
        var out = header.json.description + "\n"
        for line in lines { out += line.description + "\n" }
        return out
    }

    /// Writes it to `directory/name`, creating the directory.
    public func write(to directory: String, name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = (directory as NSString).appendingPathComponent(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Why a trace file cannot be read.
    public struct ReadError: Error, CustomStringConvertible {
        /// Why, in words.
        public let description: String
    }

    /// Reads a trace file.
    public static func read(path: String) throws(ReadError) -> TraceFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(description: "cannot read \(path)")
        }
        let rawLines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        guard let first = rawLines.first else { throw ReadError(description: "\(path) is empty") }
        func parse(_ s: Substring, _ n: Int) throws(ReadError) -> JSONValue {
            do {
                return try JSONParser.parse(Array(s.utf8))
            } catch {
                throw ReadError(description: "\(path):\(n): not JSON: \(error)")
            }
        }
        let h = try parse(first, 1)
        guard h["kind"]?.stringValue == "header", let level = h["level"]?.stringValue,
            let profile = h["profile"]?.stringValue.flatMap(Profile.init(rawValue:)),
            let seedText = h["seed"]?.description, let seed = UInt64(seedText)
        else {
            throw ReadError(description: "\(path):1: not a trace header (kind, level, profile and seed are required)")
        }
        var extra: [String: JSONValue] = [:]
        for (k, v) in h.objectValue ?? [:]
        where !["kind", "version", "level", "profile", "seed", "finding", "explanation", "pluginArguments"].contains(k)
        {
            extra[k] = v
        }
        let header = Header(
            level: level, profile: profile, seed: seed, finding: h["finding"]?.stringValue ?? "",
            explanation: h["explanation"]?.stringValue ?? "",
            pluginArguments: h["pluginArguments"]?.arrayValue?.compactMap(\.stringValue) ?? [], extra: extra)
        var lines: [JSONValue] = []
        for (i, raw) in rawLines.dropFirst().enumerated() { lines.append(try parse(raw, i + 2)) }
        return TraceFile(header: header, lines: lines)
    }
}
