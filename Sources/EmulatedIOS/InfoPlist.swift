import Foundation

/// The parts of the app's Info.plist the emulated scheduler checks.
package struct InfoPlist: Sendable, Equatable {
    /// `BGTaskSchedulerPermittedIdentifiers`.
    package var permittedIdentifiers: Set<String>
    /// `UIBackgroundModes`.
    package var backgroundModes: Set<String>

    /// The mode app-refresh tasks need.
    package static let refreshMode = "fetch"
    /// The mode processing tasks need.
    package static let processingMode = "processing"

    /// Without `--info-plist`: both identifiers and both modes are permitted.
    package static func defaultPlist(bundleIdentifier: String) -> InfoPlist {
        InfoPlist(
            permittedIdentifiers: ["\(bundleIdentifier).bg-refresh", "\(bundleIdentifier).bg-processing"],
            backgroundModes: [refreshMode, processingMode])
    }

    /// Why a plist file could not be used.
    package struct LoadError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Reads an XML (or binary) property list with `PropertyListSerialization`.
    /// Returns the plist and warnings for mistakes worth telling the user about.
    package static func load(path: String, bundleIdentifier: String) throws(LoadError) -> (InfoPlist, [String]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read Info.plist at \(path)")
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw LoadError(description: "\(path) is not a property list: \(error.localizedDescription)")
        }
        guard let root = object as? [String: Any] else {
            throw LoadError(description: "\(path): the property list's root must be a dictionary")
        }
        var warnings: [String] = []
        func strings(_ key: String) throws(LoadError) -> [String] {
            guard let value = root[key] else {
                warnings.append("\(path) has no \(key)")
                return []
            }
            guard let array = value as? [Any], array.allSatisfy({ $0 is String }) else {
                throw LoadError(description: "\(path): \(key) must be an array of strings")
            }
            return array.compactMap { $0 as? String }
        }
        let rawIdentifiers = try strings("BGTaskSchedulerPermittedIdentifiers")
        let modes = try strings("UIBackgroundModes")
        var identifiers: [String] = []
        for id in rawIdentifiers {
            let expanded = expand(id, bundleIdentifier: bundleIdentifier)
            if expanded.contains("$(") || expanded.contains("${") {
                warnings.append(
                    "\(path): identifier \"\(id)\" has an unexpanded build setting; only $(PRODUCT_BUNDLE_IDENTIFIER) "
                        + "is expanded"
                )
            }
            identifiers.append(expanded)
        }
        let wrongModes = ["background-fetch": refreshMode, "background-processing": processingMode]
        for mode in modes {
            if let right = wrongModes[mode] {
                warnings.append(
                    "\(path): UIBackgroundModes lists \"\(mode)\", which iOS does not know; the mode is \"\(right)\" "
                        + "(the seed plugin's comment has this mistake)"
                )
            }
        }
        let plist = InfoPlist(permittedIdentifiers: Set(identifiers), backgroundModes: Set(modes))
        for (id, mode) in [
            ("\(bundleIdentifier).bg-refresh", refreshMode), ("\(bundleIdentifier).bg-processing", processingMode),
        ] {
            if !plist.permittedIdentifiers.contains(id) {
                warnings.append(
                    "\(path): \(id) is not in BGTaskSchedulerPermittedIdentifiers; submitting it will fail with "
                        + "notPermitted"
                )
            }
            if !plist.backgroundModes.contains(mode) {
                warnings.append(
                    "\(path): UIBackgroundModes lacks \"\(mode)\"; submitting \(id) will fail with notPermitted")
            }
        }
        return (plist, warnings)
    }

    /// Xcode expands build settings in Info.plist values; the one that matters here
    /// is the bundle identifier.
    private static func expand(_ s: String, bundleIdentifier: String) -> String {
        s.replacingOccurrences(of: "$(PRODUCT_BUNDLE_IDENTIFIER)", with: bundleIdentifier)
            .replacingOccurrences(of: "${PRODUCT_BUNDLE_IDENTIFIER}", with: bundleIdentifier)
    }
}
