import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writing an output file named on the command line (`demo --mermaid PATH`): to where
/// it is told and nowhere else.
///
/// The path is checked before the run (``HostCLI/OutputFile/problem(_:)``): an empty
/// path, `.` or any directory, a missing directory or one that cannot be written is a
/// usage error. After the run, ``HostCLI/OutputFile/write(_:to:)`` writes through what is
/// there: an existing path is opened and written in place, never renamed over, so a
/// FIFO, a device (`/dev/null`, `/dev/stdout`) or a symlink stays what it is and an
/// existing file keeps its mode, owner and links; only a missing path is created (mode
/// 0666 less the umask, refusing to follow a link made meanwhile).
extension HostCLI {
    enum OutputFile {
        /// Why writing failed, with the path.
        struct WriteError: Error, CustomStringConvertible {
            let description: String
        }

        /// Why `path` cannot be written, checked before the run; nil when it can. Opens
        /// nothing (a FIFO is not opened before its turn). See ``usageMessage(_:_:)``.
        static func problem(_ path: String) -> String? {
            if path.isEmpty { return "an empty path names no file" }
            var info = stat()
            if stat(path, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFDIR { return "it is a directory" }
                return access(path, W_OK) == 0 ? nil : "it is not writable (\(reason(errno)))"
            }
            guard errno == ENOENT else { return reason(errno) }
            if path.hasSuffix("/") { return "no directory \(path)" }
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                return "no directory \(directory)"
            }
            return access(directory, W_OK | X_OK) == 0
                ? nil : "the directory \(directory) is not writable (\(reason(errno)))"
        }

        /// `--mermaid: cannot write PATH: WHY` for the usage error, or nil when `path` can be written.
        static func usageMessage(_ option: String, _ path: String) -> String? {
            problem(path).map { "\(option): cannot write \(path.isEmpty ? "''" : path): \($0)" }
        }

        /// Writes `text` to `path`: an existing path in place (a regular file truncated
        /// first), a missing one created. Blocks on a FIFO until it has a reader.
        static func write(_ text: String, to path: String) throws(WriteError) {
            let bytes = Array(text.utf8)
            for _ in 0..<2 {
                var fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
                if fd < 0, errno == ENOENT {
                    fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_CREAT | O_EXCL, 0o666)
                    if fd < 0, errno == EEXIST { continue }  // made meanwhile: write through it
                }
                guard fd >= 0 else { throw WriteError(description: "cannot open \(path): \(reason(errno))") }
                defer { close(fd) }
                var info = stat()
                if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, ftruncate(fd, 0) != 0 {
                    throw WriteError(description: "cannot truncate \(path): \(reason(errno))")
                }
                try writeAll(bytes, to: fd, path: path)
                return
            }
            throw WriteError(description: "cannot open \(path): it keeps appearing and disappearing")
        }

        private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(WriteError) {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {  // a non-blocking descriptor (an inherited pipe): wait until it takes more
                        var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&ready, 1, -1)
                        continue
                    }
                    throw WriteError(description: "cannot write \(path): \(reason(errno))")
                }
                offset += n
            }
        }

        private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
    }
}
