/// The kind of a layer's error: compared with `==`, named, and open to new kinds
/// without breaking a client, since there is no exhaustive `switch` to break. Each
/// error type declares its kinds as static members of its `Code`:
///
/// ```swift
/// catch let e where e.code == .pluginExited { ... }   // HostError.Code.pluginExited
/// ```
public struct FailureCode<Failure: Error>: Sendable, Hashable, CustomStringConvertible {
    private let name: String

    /// A kind of `Failure` (each error type declares its own).
    package init(_ name: String) { self.name = name }

    /// The kind's name, as the error type spells its factory.
    public var description: String { name }
}
