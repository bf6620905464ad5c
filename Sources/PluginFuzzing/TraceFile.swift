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
    /// Where the trace was read from, and the line number of each of ``lines`` there (for
    /// messages about a line; empty for a trace made in memory).
    public internal(set) var source: (path: String, lineNumbers: [Int]) = ("", [])

    /// The version of the format this build writes and reads.
    public static let version = 1

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

    /// Why a trace file cannot be read: a usage error (`replay` exits 64), naming the
    /// file and line.
    public struct ReadError: Error, CustomStringConvertible {
        /// Why, in words.
        public let description: String

        /// An error about `path`, at `line` when given.
        public init(_ path: String, line: Int? = nil, _ why: String) {
            description = "\(path)" + (line.map { ":\($0)" } ?? "") + ": " + why
        }

        /// An error in words.
        public init(description: String) {
            self.description = description
        }
    }

    /// The most bytes a trace file may have (64 MiB: a shrunk trace is a few KB).
    public static let maxBytes = 64 << 20

    /// Reads a trace file: JSON Lines, LF or CRLF, an optional UTF-8 byte order mark,
    /// blank lines skipped; the header's `kind`, `version` (``version``), `level`,
    /// `profile` and `seed` checked.
    public static func read(path: String) throws(ReadError) -> TraceFile {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw ReadError(description: "cannot read \(path) (no such file, or not allowed)")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw ReadError(path, "not a regular file")
        }
        if let size = attributes[.size] as? Int, size > maxBytes {
            throw ReadError(
                path, "\(OutputMeter.size(size)) is more than a trace holds (\(OutputMeter.size(maxBytes)))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(description: "cannot read \(path)")
        }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var numbered: [(Int, Substring)] = []
        // ("\r\n" is one Character in Swift: split on it as on "\n".)
        let split = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (i, line) in split.enumerated() where !line.allSatisfy(\.isWhitespace) {
            numbered.append((i + 1, line))
        }
        guard let (firstNumber, first) = numbered.first else { throw ReadError(path, "empty: no header line") }
        func parse(_ s: Substring, _ n: Int) throws(ReadError) -> JSONValue {
            do {
                return try JSONParser.parse(Array(s.utf8))
            } catch {
                throw ReadError(path, line: n, "not JSON: \(error)")
            }
        }
        let header = try Self.header(parse(first, firstNumber), path: path, line: firstNumber)
        var lines: [JSONValue] = []
        for (n, raw) in numbered.dropFirst() {
            let value = try parse(raw, n)
            guard value.objectValue != nil else { throw ReadError(path, line: n, "a step line must be a JSON object") }
            lines.append(value)
        }
        var trace = TraceFile(header: header, lines: lines)
        trace.source = (path, numbered.dropFirst().map(\.0))
        return trace
    }

    private static func header(_ h: JSONValue, path: String, line n: Int) throws(ReadError) -> Header {
        guard h["kind"]?.stringValue == "header" else {
            throw ReadError(path, line: n, "not a trace header: \"kind\" must be \"header\"")
        }
        guard let version = h["version"] else {
            throw ReadError(path, line: n, "the header has no \"version\" (this plugin-host reads version \(version))")
        }
        guard version == .number(JSONNumber(Self.version)) else {
            throw ReadError(
                path, line: n, "trace version \(version) is not one this plugin-host reads (version \(Self.version))")
        }
        guard let level = h["level"]?.stringValue, ["plugin", "system"].contains(level) else {
            throw ReadError(path, line: n, "\"level\" must be \"plugin\" or \"system\", not \(h["level"] ?? .null)")
        }
        guard let profile = h["profile"]?.stringValue.flatMap(Profile.init(rawValue:)) else {
            throw ReadError(path, line: n, "\"profile\" must be \"seed\" or \"strict\", not \(h["profile"] ?? .null)")
        }
        guard let seedText = h["seed"]?.description, let seed = UInt64(seedText) else {
            throw ReadError(
                path, line: n, "\"seed\" must be a whole number from 0 to 2^64-1, not \(h["seed"] ?? .null)")
        }
        let arguments = h["pluginArguments"] ?? .array([])
        guard let list = arguments.arrayValue?.map(\.stringValue), !list.contains(where: { $0 == nil }) else {
            throw ReadError(path, line: n, "\"pluginArguments\" must be a list of strings, not \(arguments)")
        }
        var extra: [String: JSONValue] = [:]
        for (k, v) in h.objectValue ?? [:]
        where !["kind", "version", "level", "profile", "seed", "finding", "explanation", "pluginArguments"].contains(k)
        {
            extra[k] = v
        }
        return Header(
            level: level, profile: profile, seed: seed, finding: h["finding"]?.stringValue ?? "",
            explanation: h["explanation"]?.stringValue ?? "",
            pluginArguments: list.compactMap { $0 }, extra: extra)
    }

    /// The line number in the file of step line `index` (for messages).
    public func lineNumber(_ index: Int) -> Int? {
        index < source.lineNumbers.count ? source.lineNumbers[index] : nil
    }
}
