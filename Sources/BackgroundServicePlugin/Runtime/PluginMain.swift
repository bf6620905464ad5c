#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `background-service-plugin` executable's entry point.
///
/// ```swift
/// // Sources/background-service-plugin/main.swift
/// import BackgroundServicePlugin
/// PluginMain.run(arguments: Array(CommandLine.arguments.dropFirst()))
/// ```
public enum PluginMain {
    /// Parses the command line and serves stdin/stdout until EOF or `shutdown`.
    /// Usage errors print the usage to stderr and exit 64.
    public static func run(arguments: [String], environment: [String: String] = PluginMain.environment) -> Never {
        // A closed stdout must end the process through EPIPE, not kill it with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        PluginSignals.install()
        returnLargeBuffersToTheSystem()
        let options: PluginOptions
        do {
            switch try PluginOptions.parse(arguments, environment: environment) {
            case .help:
                print(PluginOptions.usage)
                exit(0)
            case .version:
                print("background-service-plugin \(PluginOptions.version)")
                exit(0)
            case .run(let o):
                options = o
            }
        } catch {
            usageError(error.description)
        }
        if options.echo { runEcho() }
        if !options.faults.isEmpty {
            Stderr.log("BSP_FAULT is set: injecting \(options.faults.names.joined(separator: ", ")) (testing only)")
        }
        let engine: PluginEngine
        do {
            engine = try PluginEngine(
                options: options,
                monotonicNanoseconds: PluginMain.monotonicNanoseconds,
                log: Stderr.log)
        } catch {
            usageError(error.description)
        }
        PluginRuntime(engine: engine, realClock: options.clock == .real).run()
    }

    /// Blocks of 128 KiB and more (the input buffer of a frame near the 1 MiB limit, a
    /// large batch reply) are mapped on their own and unmapped when freed. glibc's default
    /// raises that threshold to the largest block freed so far, after which such blocks
    /// come from the heap and stay resident when freed: each of the first few 1 MiB frames
    /// left the plugin's RSS 1 to 2 MiB higher for the rest of its life, which `plugin-host
    /// soak` read as growth (`docs/benchmarks.md`, "Memory after a large frame").
    /// (`mallopt` is not in the Glibc module: it is looked up by name.)
    private static func returnLargeBuffersToTheSystem() {
        #if canImport(Glibc)
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>
            guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return }
            _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, 128 << 10)
        #endif
    }

    private static func usageError(_ message: String) -> Never {
        Stderr.log("error: \(message)")
        Stderr.writeText(PluginOptions.usage + "\n")
        exit(64)
    }

    /// The process environment, read from `environ` (the plugin's normal path does
    /// not initialize Foundation, which keeps its memory and startup small).
    public static var environment: [String: String] {
        var result: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            p += 1
        }
        return result
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// `--echo`: copies stdin to stdout byte for byte (the benchmark's floor), with
    /// the same layout as serving: a reader thread doing blocking reads and writing
    /// what it read, the main thread parked.
    private static func runEcho() -> Never {
        startThread {
            let capacity = 1 << 16
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
            while true {
                let n = read(0, buffer.baseAddress, capacity)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { exit(0) }
                Stdout.writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            }
        }
        while true { pause() }
    }
}
