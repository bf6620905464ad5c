import EmulatedIOS
import HostProtocol

/// The plugin's command-line configuration (contract section 7).
///
/// ```swift
/// let command = try PluginOptions.parse(["--profile", "strict", "--events"])
/// ```
public struct PluginOptions: Sendable, Equatable {
    /// `--bundle-id` (default `com.example.app`).
    public var bundleIdentifier = "com.example.app"
    /// `--clock` (default `virtual`).
    public var clock = ClockKind.virtual
    /// `--time-scale`: virtual seconds per real second (real clock; default 1).
    public var timeScale = 1.0
    /// `--profile` (default `seed`).
    public var profile = Profile.seed
    /// `--info-plist`: a property list to load instead of the permissive default.
    public var infoPlistPath: String?
    /// `--framing` (default `auto`).
    public var framing = FramingMode.auto
    /// `--max-frame-bytes` (default 1 MiB).
    public var maxFrameBytes = 1 << 20
    /// `--events`: events on from the start.
    public var events = false
    /// `--dispatch` (default `serial`).
    public var dispatch = DispatchMode.serial
    /// `--dispatch-seed`: the seed of the interleaving schedule under `--dispatch tauri` (default 0).
    public var dispatchSeed: UInt64 = 0
    /// `--os` (default `manual`).
    public var osMode = OSMode.manual
    /// `--os-seed`: the seed of the `--os ios` policy's random draws (default 0).
    public var osSeed: UInt64 = 0
    /// `--ios-defaults`: the `--os ios` policy's defaults (default `device`).
    public var iosDefaults = IOSDefaults.device
    /// `--echo` (hidden, for `plugin-host bench`): echo stdin to stdout, nothing else.
    public var echo = false
    /// `BSP_FAULT` (testing only).
    public var faults = FaultSet.none
    /// Under `--os ios`, the events one `os/advanceTime` performs before it stops at the end
    /// of an instant (twice this within one instant). No flag: tests lower it to reach the
    /// bounds without writing hundreds of megabytes.
    var iosAdvanceEventBound = EmulatedOS.maxEventsPerAdvanceIOS

    /// Creates the defaults.
    public init() {}

    /// What the command line asks for.
    public enum Command: Sendable, Equatable {
        /// Serve the protocol with these options.
        case run(PluginOptions)
        /// Print the usage and exit.
        case help
        /// Print the version and exit.
        case version
    }

    /// A bad command line: the message goes to stderr with the usage, exit 64.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        /// The reason, for stderr.
        public let description: String
        /// A usage error with its reason.
        public init(_ description: String) { self.description = description }
    }

    /// The version `--version` prints and `initialize` reports.
    public static let version = "0.1.0"

    /// The usage text for `--help` and usage errors.
    public static let usage = """
        usage: background-service-plugin [options]

        Speaks JSON-RPC 2.0 on stdin/stdout as the iOS half of a Tauri background-service
        plugin, on an emulated BGTaskScheduler. Logs go to stderr.

        options:
          --bundle-id ID          bundle identifier (default com.example.app); tasks are
                                  ID.bg-refresh and ID.bg-processing
          --clock virtual|real    virtual: starts at 0, moved by os/advanceTime (default);
                                  real: follows the wall clock
          --time-scale X          real clock: virtual seconds per real second (default 1)
          --profile seed|strict   seed: as the seed plugin behaves (default);
                                  strict: wrong-typed params and superseded waits rejected,
                                  invoke bodies run on the main queue (no --dispatch races)
          --info-plist PATH       Info.plist (XML or binary) with BGTaskSchedulerPermittedIdentifiers
                                  and UIBackgroundModes (default: both identifiers, fetch, processing)
          --framing auto|ndjson|lsp
                                  input framing (default auto: '{' or '[' first means ndjson)
          --max-frame-bytes N     longest frame accepted (default 1048576)
          --events                send events from the start, without initialize
          --dispatch serial|tauri serial: each job runs to its end (default); tauri: invokes on
                                  an ipc queue, the OS's handlers and the timer on a main queue,
                                  the steps of one JSON-RPC batch's jobs interleaved
          --dispatch-seed N       tauri: seed of the interleaving schedule, 0 to 2^63-1 (default 0);
                                  plugin/dispatchSchedule chooses it explicitly
          --os manual|ios|simulator
                                  manual: the OS acts only on os/ controls (default);
                                  ios: it also applies iOS's policies: launch decisions
                                  (delays, battery, Low Power Mode, energy budget, rate
                                  limit, force-quit), runtime budgets, the watchdog and
                                  the app's lifecycle (os/terminate, os/openApp,
                                  os/explain, os/setPolicy; see docs/protocol.md);
                                  simulator: the iOS Simulator's: every submit fails
                                  with unavailable, nothing launches by itself, only
                                  os/launch and os/expire (the debugger's commands) act
          --os-seed N             seed of the ios policy's random draws (default 0);
                                  the same seed and input give the same output
          --ios-defaults device|legacy
                                  ios: the policy's defaults: device, the app's states
                                  (foreground, background, suspended) and scheduling
                                  driven by use on (default); legacy, the model before
                                  them (a process only running or not, use ignored)
          --help                  this text
          --version               print the version

        environment:
          BSP_FAULT=NAME[,NAME]   testing only: inject deliberate defects (see docs/conformance.md)
        """

    /// Parses arguments (without the program name). Accepts `--flag value` and `--flag=value`.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> Command {
        var options = PluginOptions()
        var iosDefaultsGiven = false
        var i = 0
        func value(_ flag: String, _ inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            i += 1
            guard i < arguments.count else { throw UsageError("\(flag) needs a value") }
            return arguments[i]
        }
        /// A flag whose value is one of an enum's cases; the error names them all ("a, b or c").
        func oneOf<E: RawRepresentable & CaseIterable>(_ flag: String, _ inline: String?) throws(UsageError) -> E
        where E.RawValue == String {
            let v = try value(flag, inline)
            guard let e = E(rawValue: v) else {
                let names = E.allCases.map(\.rawValue)
                let listed = names.dropLast().joined(separator: ", ") + " or " + names.last!
                throw UsageError("\(flag) must be \(listed), not \"\(v)\"")
            }
            return e
        }
        while i < arguments.count {
            let arg = arguments[i]
            let (flag, inline): (String, String?) = {
                guard arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") else { return (arg, nil) }
                return (String(arg[..<eq]), String(arg[arg.index(after: eq)...]))
            }()
            switch flag {
            case "--help", "-h": return .help
            case "--version": return .version
            case "--bundle-id":
                let v = try value(flag, inline)
                guard !v.isEmpty, !v.contains(where: { $0.isWhitespace }) else {
                    throw UsageError("--bundle-id must be a non-empty identifier without spaces")
                }
                options.bundleIdentifier = v
            case "--clock": options.clock = try oneOf(flag, inline)
            case "--time-scale":
                let v = try value(flag, inline)
                guard let x = Double(v), x.isFinite, x > 0 else {
                    throw UsageError("--time-scale must be a positive number, not \"\(v)\"")
                }
                options.timeScale = x
            case "--profile": options.profile = try oneOf(flag, inline)
            case "--info-plist":
                options.infoPlistPath = try value(flag, inline)
            case "--framing": options.framing = try oneOf(flag, inline)
            case "--max-frame-bytes":
                let v = try value(flag, inline)
                guard let n = Int(v), n >= 64, n <= 1 << 30 else {
                    throw UsageError("--max-frame-bytes must be an integer from 64 to 1073741824, not \"\(v)\"")
                }
                options.maxFrameBytes = n
            case "--dispatch": options.dispatch = try oneOf(flag, inline)
            case "--dispatch-seed":
                let v = try value(flag, inline)
                guard let n = Int64(v), n >= 0 else {
                    throw UsageError("--dispatch-seed must be an integer from 0 to 9223372036854775807, not \"\(v)\"")
                }
                options.dispatchSeed = UInt64(n)
            case "--events":
                guard inline == nil else { throw UsageError("--events takes no value") }
                options.events = true
            case "--os": options.osMode = try oneOf(flag, inline)
            case "--os-seed":
                let v = try value(flag, inline)
                guard let n = UInt64(v) else {
                    throw UsageError("--os-seed must be an integer from 0 to 18446744073709551615, not \"\(v)\"")
                }
                options.osSeed = n
            case "--ios-defaults":
                options.iosDefaults = try oneOf(flag, inline)
                iosDefaultsGiven = true
            case "--echo":
                options.echo = true
            default:
                throw UsageError("unknown option \"\(arg)\"")
            }
            i += 1
        }
        if iosDefaultsGiven, options.osMode != .ios {
            throw UsageError("--ios-defaults applies only with --os ios")
        }
        do {
            options.faults = try FaultSet.parse(environment["BSP_FAULT"])
        } catch {
            throw UsageError(error.description)
        }
        return .run(options)
    }
}
