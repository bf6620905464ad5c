import HostTestSupport
import Testing

/// The demos' notes say what the timeline shows, whatever the options: read from the
/// run's events, not assumed from the script.
@Suite("plugin-host demo narration")
struct DemoNarrationTests {
    /// The narration lines (`--` in the timeline) of a demo run.
    func notes(_ arguments: [String], status: Int32 = 0) async throws -> (notes: [String], stdout: String) {
        let r = try await runHost(["demo"] + arguments)
        #expect(r.status == status, "stderr: \(r.stderr)")
        let notes = r.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "  --  ") else { return nil }
            return line[range.upperBound...].trimmingCharacters(in: .whitespaces)
        }
        return (notes, r.stdout)
    }

    @Test func theDefaultDay() async throws {
        let (notes, _) = try await notes([])
        #expect(
            notes.contains(
                "The sync finished in time: the Rust side completed the refresh task with success 15 s after its "
                    + "launch and rescheduled"))
        #expect(
            notes.contains(
                "The safety timer fired 28 s after its launch; the cancel listener resolved and the Rust side stopped "
                    + "the service (run 2); the refresh task was completed with failure; its request was then "
                    + "cancelled (stopKeepalive)"))
        #expect(
            notes.contains {
                $0.hasPrefix("iOS expired the processing task 300 s after its launch; the cancel listener resolved")
            })
    }

    /// A first sync longer than the safety timer: the timer cuts it off, and the note says so.
    @Test func aSyncLongerThanTheSafetyTimer() async throws {
        let (notes, stdout) = try await notes(["--work-seconds", "100"])
        #expect(!notes.contains { $0.contains("finished in time") })
        #expect(
            notes.contains {
                $0.hasPrefix(
                    "The safety timer fired 28 s after its launch; the cancel listener resolved and the Rust side "
                        + "stopped the service (run 1)")
            })
        #expect(stdout.contains("bg-refresh failure at 00:00:33.000"))
    }

    /// `--safety-timeout 0`: the timer fires at the plugin's 0.1 ms minimum, and the note says that.
    @Test func aSafetyTimeoutOfZero() async throws {
        let (notes, _) = try await notes(["--safety-timeout", "0"])
        #expect(!notes.contains { $0.contains("finished in time") })
        #expect(!notes.contains { $0.contains("fired 0 s") })
        #expect(notes.filter { $0.hasPrefix("The safety timer fired 0.0001 s after its launch") }.count == 2)
    }

    /// Later syncs shorter than the wait for the launch: no listener is left when the timer fires.
    @Test func syncsThatEndBeforeTheirTask() async throws {
        let (notes, _) = try await notes(["--overrun-seconds", "10"])
        #expect(
            notes.contains(
                "The safety timer fired 28 s after its launch; no cancel listener was waiting, so no service run was "
                    + "stopped; the refresh task was completed with failure and rescheduled"))
        #expect(!notes.contains { $0.contains("the cancel listener resolved") })
    }

    /// The seed profile's iOS day: what was due launches when the app opens, and a third
    /// process is started in the background for a task nobody serves.
    @Test func theIOSDay() async throws {
        // The fifth happening breaks a rule under the seed profile (exit 1).
        let (notes, _) = try await notes(["--os", "ios"], status: 1)
        #expect(
            notes.contains {
                $0.hasPrefix(
                    "iOS expired the refresh task 3.332 s after its launch (budget); the cancel listener resolved")
            })
        #expect(notes.contains("The phone is unplugged 300 s into the processing task"))
        #expect(
            notes.contains(
                "An hour later nothing has run; iOS on the refresh request: pending, not launched because of forceQuit")
        )
        #expect(
            notes.contains {
                $0.hasPrefix(
                    "What was due launched at once (com.example.app.bg-refresh), with no service running: the safety "
                        + "timer fired 28 s")
            })
        #expect(
            notes.contains {
                $0.hasPrefix(
                    "iOS started app process 3 in the background for the refresh task: nothing started the service in "
                        + "it; the safety timer fired 28 s after its launch")
            })
        // 5. Two tasks at once: completing the refresh task lets go of the processing task.
        #expect(notes.contains { $0.hasPrefix("iOS launched both tasks at once; the safety timer fired 28 s") })
        #expect(
            notes.contains(
                "Nothing completed the processing task after the refresh task's cleanup() set both task references "
                    + "to nil: iOS expired it at its budget, and the watchdog killed the app"))
    }

    /// Under strict, the opened app releases the keepalive: nothing is left to launch, no
    /// third process starts, and the notes say so rather than the seed's day.
    @Test func theIOSDayUnderStrict() async throws {
        let (notes, stdout) = try await notes(["--os", "ios", "--profile", "strict"])
        #expect(!notes.contains { $0.contains("launched at once") || $0.contains("stay pending") })
        #expect(
            !notes.contains {
                $0.contains("waited for its safety timer") || $0.contains("iOS started app process")
            })
        #expect(notes.contains("Nothing launched after the app opened"))
        #expect(notes.contains("iOS on the refresh request: not pending, so there is nothing to launch"))
        #expect(notes.contains("No background launch came, so no new process started"))
        // 5. Strict completes both tasks: no let-go, no watchdog kill.
        #expect(notes.contains("The user opens the app"))
        #expect(notes.contains { $0.hasPrefix("iOS launched both tasks at once") })
        #expect(!notes.contains { $0.contains("the watchdog killed the app") })
        #expect(notes.contains { $0.contains("the processing task was completed with failure") })
        #expect(stdout.contains("app processes: 3\n"))
        #expect(stdout.contains("watchdog kills: 0\n"))
    }

    /// The app's code starts the service at every launch: the cold start's run meets its task.
    @Test func theIOSDayWithRestartAtLaunch() async throws {
        let (notes, _) = try await notes(["--os", "ios", "--restart-at-launch"], status: 1)
        #expect(notes.contains("Nothing launched after the app opened; the service runs in the new process"))
        #expect(
            notes.contains {
                $0.hasPrefix(
                    "iOS started app process 3 in the background for the refresh task: the app's code started the "
                        + "service at launch, and the new run met the task; the safety timer fired 28 s after its "
                        + "launch; the cancel listener resolved")
            })
    }
}
