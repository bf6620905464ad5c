/// A small command-line parser: `--flag`, `--option value`, `--option=value`,
/// and everything after `--` kept aside (extra plugin arguments).
public struct Arguments: Sendable {
    /// A bad command line (exit 64).
    public struct UsageError: Error, CustomStringConvertible {
        /// What is wrong, in one line.
        public let description: String
        /// An error saying `description`.
        public init(_ description: String) { self.description = description }
    }

    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// Arguments after `--`.
    public private(set) var passthrough: [String] = []
    /// Positional arguments.
    public private(set) var positional: [String] = []

    /// Parses `arguments` given the options that take a value and the bare flags.
    public init(_ arguments: [String], options: Set<String>, flags allowedFlags: Set<String>) throws(UsageError) {
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            if arg == "--" {
                passthrough = Array(arguments[(i + 1)...])
                break
            }
            if arg.hasPrefix("--") || (arg.hasPrefix("-") && arg.count == 2 && arg != "-") {
                var name = arg
                var inline: String?
                if let eq = arg.firstIndex(of: "=") {
                    name = String(arg[..<eq])
                    inline = String(arg[arg.index(after: eq)...])
                }
                if name == "-h" { name = "--help" }
                if allowedFlags.contains(name) {
                    guard inline == nil else { throw UsageError("\(name) takes no value") }
                    flags.insert(name)
                } else if options.contains(name) {
                    if let inline {
                        values[name, default: []].append(inline)
                    } else {
                        i += 1
                        guard i < arguments.count else { throw UsageError("\(name) needs a value") }
                        values[name, default: []].append(arguments[i])
                    }
                } else {
                    throw UsageError("unknown option \"\(name)\"")
                }
            } else {
                positional.append(arg)
            }
            i += 1
        }
    }

    /// Whether a bare flag was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The last value given for an option.
    public func value(_ option: String) -> String? { values[option]?.last }

    /// A string option with a default.
    public func string(_ option: String, default d: String) -> String { value(option) ?? d }

    /// An integer option within a range.
    public func int(_ option: String, default d: Int, range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let v = value(option) else { return d }
        guard let n = Int(v), range.contains(n) else {
            throw UsageError(
                "\(option) must be an integer from \(range.lowerBound) to \(range.upperBound), not \"\(v)\"")
        }
        return n
    }

    /// An unsigned 64-bit integer option.
    public func uint64(_ option: String) throws(UsageError) -> UInt64? {
        guard let v = value(option) else { return nil }
        guard let n = UInt64(v) else { throw UsageError("\(option) must be a non-negative integer, not \"\(v)\"") }
        return n
    }

    /// A number option within a range.
    public func double(_ option: String, default d: Double, range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let v = value(option) else { return d }
        guard let x = Double(v), x.isFinite, range.contains(x) else {
            throw UsageError("\(option) must be a number from \(range.lowerBound) to \(range.upperBound), not \"\(v)\"")
        }
        return x
    }

    /// An option naming a case of a string enum.
    public func choice<E: RawRepresentable & CaseIterable>(_ option: String, default d: E) throws(UsageError) -> E
    where E.RawValue == String {
        guard let v = value(option) else { return d }
        guard let e = E(rawValue: v) else {
            throw UsageError(
                "\(option) must be one of \(E.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(v)\"")
        }
        return e
    }
}
