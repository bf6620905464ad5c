/// How this binary was built. Job interleavings in a simulation are a pure
/// function of the steps for a given build, but can differ between a debug and a
/// release build (the optimizer removes executor hops that do not change the
/// program's meaning), so traces record it.
public enum BuildInfo {
    /// "debug" or "release".
    public static var configuration: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }
}
