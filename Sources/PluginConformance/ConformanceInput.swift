import HostProtocol

/// One input on the plugin's stdin.
enum ConformanceInput: Sendable, Hashable {
    /// A JSON text, framed with the check's input framing.
    case json(String)
    /// Bytes written exactly as given (already framed, or deliberately broken).
    case raw([UInt8])

    /// Raw bytes from a string's UTF-8.
    static func text(_ s: String) -> ConformanceInput { .raw(Array(s.utf8)) }

    /// The bytes written for this input.
    func bytes(framing: Framing) -> [UInt8] {
        switch self {
        case .json(let s): FrameEncoder.frame(Array(s.utf8), framing: framing)
        case .raw(let b): b
        }
    }

    /// A readable form: the JSON text, or the raw bytes with `\r`, `\n` and
    /// non-printable bytes escaped (long inputs are shortened).
    var display: String {
        switch self {
        case .json(let s): ConformanceText.shorten(s)
        case .raw(let b): "raw " + ConformanceText.escape(b)
        }
    }
}
