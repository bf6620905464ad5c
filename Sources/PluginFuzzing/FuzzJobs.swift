import Dispatch
import Foundation

/// Runs `count` fuzzing jobs, each on a thread of its own (they block on pipes),
/// and waits for them all.
enum FuzzJobs {
    static func run(_ count: Int, _ job: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                job(index)
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
    }
}
