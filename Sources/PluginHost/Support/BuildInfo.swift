/// How this binary was built ("debug" or "release"), for reports and trace headers
/// (information only: a simulation runs the same in either build).
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
