import Foundation
import HostTestSupport
import Testing

/// The package's library products against its sources (issue 24): every library product
/// exports something, and the embedding library holds neither the emulated Rust side nor
/// the system simulation.
@Suite("Library products")
struct LibraryProductsTests {
    static let root = PackageRoot.url

    /// A line that declares something `public` or `open` (as `docs/architecture.md` counts them).
    static let declaration = try! NSRegularExpression(
        pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:static|final|nonisolated|override|mutating|"#
            + #"convenience|required|indirect|private\(set\)|package\(set\)|internal\(set\)|lazy)\s+)*"#
            + #"(?:func|var|let|init|struct|class|enum|protocol|typealias|subscript|actor|case)\b"#)

    /// `public` or `open` declarations in a target's Swift files.
    static func publicDeclarations(in target: String) throws -> Int {
        let dir = root.appendingPathComponent("Sources/\(target)")
        let files = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
        var count = 0
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            count +=
                text.split(separator: "\n").filter { line in
                    let line = String(line)
                    return declaration.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
                }.count
        }
        return count
    }

    /// The names of the package's library products, from `Package.swift`.
    static func libraryProducts() throws -> [String] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.library\(name: "(\w+)""#)
        let range = NSRange(manifest.startIndex..., in: manifest)
        return pattern.matches(in: manifest, range: range).compactMap { match in
            Range(match.range(at: 1), in: manifest).map { String(manifest[$0]) }
        }
    }

    @Test func everyLibraryProductExportsSomething() throws {
        let products = try Self.libraryProducts()
        #expect(products.contains("PluginHost") && products.contains("RustSide") && products.contains("HostSimulation"))
        for product in products {
            #expect(try Self.publicDeclarations(in: product) > 0, "library product \(product) exports nothing")
        }
    }

    @Test func theEmbeddingLibraryHoldsTheWireOnly() throws {
        let dir = Self.root.appendingPathComponent("Sources/PluginHost")
        let folders = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(folders == ["Client", "Connection", "Errors", "Process", "Support", "Transport"])
    }

    /// A ratchet on the embedding library's surface: 221 public declarations after the
    /// split of issue 24 (487 before). A change that adds public API raises this figure
    /// on purpose, in the same commit, with `docs/architecture.md`'s count.
    @Test func theEmbeddingLibrarysSurfaceDoesNotCreep() throws {
        let count = try Self.publicDeclarations(in: "PluginHost")
        #expect(count <= 221, "PluginHost declares \(count) public things; the ceiling is 221")
        #expect(count >= 150, "the scan found only \(count): the regex no longer matches the code")
    }
}
