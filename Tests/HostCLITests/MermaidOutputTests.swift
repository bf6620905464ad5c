import Foundation
import HostTestSupport
import Testing

/// `demo --mermaid PATH` writes to where it is told and nowhere else: through a FIFO
/// or a symlink, in place in an existing file (its mode kept), and a path that cannot
/// be written is a usage error before the run (issue 26, items 1 and 17). Each case in
/// a temporary directory of its own, never on a real /dev path.
@Suite("plugin-host demo --mermaid")
struct MermaidOutputTests {
    /// A fresh directory, removed after `body`.
    func inDirectory(_ body: (URL) async throws -> Void) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mermaid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await body(dir)
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func aFIFOIsWrittenThroughAndStaysAFIFO() async throws {
        try await inDirectory { dir in
            let fifo = dir.appendingPathComponent("diagram").path
            #expect(mkfifo(fifo, 0o600) == 0)
            // The reader, on a thread started here and now (an `async let` child may start
            // only after the demo is gone when the test runner's threads are all busy): its
            // open(2) blocks until the demo opens the FIFO to write; then it reads to EOF.
            let text = Box<String?>(nil)
            let read = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let data = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data()
                text.set(String(decoding: data, as: UTF8.self))
                read.signal()
            }
            let r = try await runHost(["demo", "--mermaid", fifo])
            // Should the demo have died before opening it, a writer that comes and goes
            // releases the reader once it waits in open(2) (O_NONBLOCK: no wait while no
            // reader is there yet); tried until it has read to EOF, off the test's thread.
            let ended = try await onThread {
                for _ in 0..<600 {
                    if read.wait(timeout: .now() + .milliseconds(100)) == .success { return true }
                    let writer = open(fifo, O_WRONLY | O_NONBLOCK)
                    if writer >= 0 { close(writer) }
                }
                return false
            }
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(ended, "the reader got to EOF")
            #expect(text.get?.hasPrefix("sequenceDiagram\n") == true, "\(text.get ?? "nothing read")")
            #expect(isFIFO(fifo))
        }
    }

    func isFIFO(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
    }

    @Test func aSymlinkStaysALinkAndItsTargetKeepsItsMode() async throws {
        try await inDirectory { dir in
            let target = dir.appendingPathComponent("target.mmd").path
            let link = dir.appendingPathComponent("link.mmd").path
            #expect(FileManager.default.createFile(atPath: target, contents: Data("old".utf8)))
            #expect(chmod(target, 0o600) == 0)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let r = try await runHost(["demo", "--mermaid", link])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
            #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("sequenceDiagram\n"))
            #expect(try mode(target) == 0o600)
        }
    }

    @Test func anExistingFileKeepsItsModeAndIsReplacedWhole() async throws {
        try await inDirectory { dir in
            let file = dir.appendingPathComponent("diagram.mmd").path
            let long = String(repeating: "x", count: 100_000)
            #expect(FileManager.default.createFile(atPath: file, contents: Data(long.utf8)))
            #expect(chmod(file, 0o600) == 0)
            let r = try await runHost(["demo", "--mermaid", file])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.hasPrefix("sequenceDiagram\n") && !text.contains("xxx"), "truncated first")
            #expect(try mode(file) == 0o600)
        }
    }

    @Test func aNewFileIsCreated() async throws {
        try await inDirectory { dir in
            let file = dir.appendingPathComponent("new.mmd").path
            let r = try await runHost(["demo", "--mermaid", file])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("sequenceDiagram\n"))
        }
    }

    /// Checked before the run: nothing runs, nothing is printed on stdout, exit 64.
    @Test func unusablePathsAreUsageErrors() async throws {
        try await inDirectory { dir in
            let readOnly = dir.appendingPathComponent("ro")
            try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false)
            #expect(chmod(readOnly.path, 0o500) == 0)
            defer { chmod(readOnly.path, 0o700) }
            var cases: [(String, String)] = [
                ("", "--mermaid: cannot write '': an empty path names no file"),
                (".", "--mermaid: cannot write .: it is a directory"),
                (dir.path, "it is a directory"),
                (dir.path + "/", "it is a directory"),
                (dir.appendingPathComponent("missing/x.mmd").path, "no directory \(dir.path)/missing"),
            ]
            // Root writes anywhere: the read-only case only means something for other users.
            if geteuid() != 0 { cases.append((readOnly.appendingPathComponent("x.mmd").path, "not writable")) }
            for (path, message) in cases {
                let r = try await runHost(["demo", "--mermaid", path])
                #expect(r.status == 64, "\(path): \(r.stderr)")
                #expect(r.stderr.contains(message), "\(path): \(r.stderr)")
                #expect(r.stdout.isEmpty, "\(path): the run did not start")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["ro"])
        }
    }
}
