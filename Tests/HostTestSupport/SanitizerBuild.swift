import Foundation

/// Whether this test process (and so the binaries built with it) runs under a
/// sanitizer. Such a build is many times slower, and AddressSanitizer's quarantine
/// makes resident memory grow with every allocation: tests use it to check memory
/// bounds in plain builds only, and to give hang-catching timeouts and workloads that
/// a starved sanitizer run can meet.
package enum SanitizerBuild {
    /// True when AddressSanitizer or ThreadSanitizer is linked into this process.
    package static let active: Bool = {
        let program = dlopen(nil, RTLD_NOW)
        let names: [String] = ["__asan_init", "__tsan_init"]
        return names.contains { (name: String) -> Bool in dlsym(program, name) != nil }
    }()
}
