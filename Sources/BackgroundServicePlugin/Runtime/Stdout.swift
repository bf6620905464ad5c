import Dispatch
import HostProtocol
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes to stdout with `write(2)`; a closed stdout ends the process cleanly.
enum Stdout {
    static func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeAll($0) }
    }

    static func writeAll(_ raw: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < raw.count {
            let n = write(1, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE {
                    Stderr.log("stdout was closed by the reader (EPIPE); exiting")
                    exit(0)
                }
                Stderr.log("writing stdout failed: \(String(cString: strerror(errno))); exiting")
                exit(1)
            }
            offset += n
        }
    }
}
