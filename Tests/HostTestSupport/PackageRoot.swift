import Foundation

/// The package's own files (docs, sources, traces), found from this file's place in
/// `Tests/HostTestSupport`, for tests that read them.
package enum PackageRoot {
    /// The package's root directory.
    package static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A path inside the package (`"docs/rules.md"`), as a URL.
    package static func url(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    /// A path inside the package, as a file-system path.
    package static func path(_ relative: String) -> String { url(relative).path }

    /// The UTF-8 text of a file inside the package.
    package static func read(_ relative: String) throws -> String {
        try String(contentsOf: url(relative), encoding: .utf8)
    }
}
