import Dispatch
import Foundation
import HostProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The three pipes: frames to stdin, output from stdout, stderr forwarded.
extension PluginProcess {
    /// Writes all of `bytes` to the plugin's stdin. A plugin that has gone (EPIPE)
    /// fails with its exit status when it is known within 100 ms.
    public func send(_ bytes: [UInt8]) throws(HostError) {
        let failure: Int32? = bytes.withUnsafeBytes { raw in
            input.withLock { fd -> Int32? in
                guard fd >= 0 else { return EBADF }
                var offset = 0
                while offset < raw.count {
                    let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        // The pipe is full: wait until the plugin reads, or is stopped.
                        if errno == EAGAIN {
                            if wake.wait(fd, for: POLLOUT) { continue }
                            return EPIPE
                        }
                        return errno
                    }
                    offset += n
                }
                return nil
            }
        }
        guard let failure else { return }
        if let status = waitForExit(timeout: .milliseconds(100)) { throw .pluginExited(status) }
        if failure == EBADF { throw .closed }
        if failure == EPIPE { throw .pluginExited(nil) }
        throw .ioFailure("cannot write to the plugin: \(String(cString: strerror(failure)))")
    }

    /// Waits for the plugin's stdout (or for ``terminate()``) and reads it; 0 once it has
    /// ended or the plugin was stopped (the pipe is then closed).
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let fd = output.load(ordering: .acquiring)
        guard fd >= 0 else { return 0 }
        while true {
            let n = wake.wait(fd, for: POLLIN) ? read(fd, buffer.baseAddress, buffer.count) : 0
            if n > 0 { return n }
            if n < 0, errno == EINTR { continue }
            // The end of the output (a read error ends it too).
            if output.compareExchange(expected: fd, desired: -1, ordering: .acquiringAndReleasing).exchanged {
                Glibc.close(fd)
            }
            return 0
        }
    }

    /// Closes the plugin's stdin: it sees the end of its input.
    public func closeInput() {
        input.withLock { fd in
            if fd >= 0 {
                Glibc.close(fd)
                fd = -1
            }
        }
    }

    /// The host's end of the plugin's stdout, for a fault trial to name the pipe.
    package var outputDescriptor: Int32 { output.load(ordering: .acquiring) }

    /// Closes the host's end of the plugin's stdout without reading it, so that the
    /// plugin's next write fails with EPIPE (a fault trial). Only while nothing reads
    /// the output: a blocked `read(2)` would keep the pipe open.
    package func closeOutput() {
        let fd = output.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { Glibc.close(fd) }
    }

    /// The one stderr loop (which ``WakePipe`` ends when the plugin is stopped and
    /// something else keeps its stderr open): a thread forwards the plugin's stderr line by line with
    /// `prefix` (a line longer than 8 KiB in pieces), each line made safe for a
    /// terminal (`TerminalText.oneLine`: a plugin's escape sequences and bidirectional
    /// overrides are shown, not obeyed), and signals `done` at its end.
    static func forwardStderr(
        _ fd: Int32, prefix: String, to handler: @escaping @Sendable (String) -> Void, wake: WakePipe,
        done: DispatchSemaphore
    ) {
        let thread = Thread {
            var pending: [UInt8] = []
            let capacity = 1 << 14
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
            defer { buffer.deallocate() }
            func emit(_ bytes: ArraySlice<UInt8>) {
                handler(prefix + TerminalText.oneLine(String(decoding: bytes, as: UTF8.self), limit: 8192))
            }
            func flushLines(final: Bool) {
                var start = pending.startIndex
                while let nl = pending[start...].firstIndex(of: 0x0A) {
                    emit(pending[start..<nl])
                    start = nl + 1
                }
                while pending.count - start > 8192 {
                    emit(pending[start..<(start + 8192)])
                    start += 8192
                }
                if final, start < pending.count {
                    emit(pending[start...])
                    start = pending.count
                }
                pending.removeSubrange(..<start)
            }
            while wake.wait(fd, for: POLLIN) {
                let n = read(fd, buffer.baseAddress, capacity)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                flushLines(final: false)
            }
            flushLines(final: true)
            Glibc.close(fd)
            done.signal()
        }
        thread.name = "plugin-stderr"
        thread.start()
    }
}
