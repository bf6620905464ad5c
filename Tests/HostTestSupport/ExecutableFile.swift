import Foundation

/// Executables that tests write (scripts, copies of a binary), written through a
/// close-on-exec descriptor: a process another test spawns meanwhile must not inherit the
/// file open for writing, or exec'ing the file fails with ETXTBSY ("Text file busy").
///
/// ```swift
/// try ExecutableFile.create(Array("#!/bin/sh\nexit 0\n".utf8), at: path)
/// ```
package enum ExecutableFile {
    /// Writes `bytes` to a new file at `path` (mode 0755); throws if it exists or a write fails.
    package static func create(_ bytes: [UInt8], at path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw CocoaError(.fileWriteUnknown) }
            offset += n
        }
    }

    /// Copies the file at `source` to a new executable at `path`.
    package static func copy(_ source: String, to path: String) throws {
        try create(Array(try Data(contentsOf: URL(fileURLWithPath: source))), at: path)
    }
}
