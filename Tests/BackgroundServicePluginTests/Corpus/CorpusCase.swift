import HostProtocol
import HostTestSupport

/// One malformed (or borderline) input and the replies the contract prescribes.
///
/// Most cases are a message *body*, sent as one frame in each framing: an ndjson
/// line (`body` + `\n`) and an lsp frame (`Content-Length` + body). Cases about
/// one framing's own syntax (LSP headers, line endings) carry their raw bytes for
/// that framing only.
struct CorpusCase: Sendable, CustomStringConvertible {
    /// A short name saying what is wrong with the input.
    let name: String
    /// Raw bytes per framing; a framing without an entry does not run the case.
    let wire: [Framing: [UInt8]]
    /// The replies, per framing, in order.
    let expected: [Framing: [Reply]]
    /// Write the bytes in several pieces, with pauses, so the plugin reads the frame
    /// across several `read(2)`s.
    var split = false

    var description: String { name }

    /// A body sent in both framings with the same expected replies.
    init(_ name: String, body: [UInt8], _ replies: [Reply], split: Bool = false) {
        self.name = name
        wire = [.ndjson: body + [0x0A], .lsp: FrameEncoder.frame(body, framing: .lsp)]
        expected = [.ndjson: replies, .lsp: replies]
        self.split = split
    }

    init(_ name: String, body: String, _ replies: [Reply], split: Bool = false) {
        self.init(name, body: Array(body.utf8), replies, split: split)
    }

    /// Several bodies, each sent as its own frame, in both framings.
    init(_ name: String, frames bodies: [String], _ replies: [Reply]) {
        self.name = name
        wire = [
            .ndjson: bodies.flatMap { Array($0.utf8) + [0x0A] },
            .lsp: bodies.flatMap { FrameEncoder.frame(Array($0.utf8), framing: .lsp) },
        ]
        expected = [.ndjson: replies, .lsp: replies]
    }

    /// A body whose replies differ between the framings (blank bodies: an empty
    /// ndjson line is skipped, an empty lsp body is not JSON).
    init(_ name: String, body: [UInt8], ndjson: [Reply], lsp: [Reply]) {
        self.name = name
        wire = [.ndjson: body + [0x0A], .lsp: FrameEncoder.frame(body, framing: .lsp)]
        expected = [.ndjson: ndjson, .lsp: lsp]
    }

    /// Raw bytes for one framing only.
    init(_ name: String, raw: [UInt8], framing: Framing, _ replies: [Reply], split: Bool = false) {
        self.name = name
        wire = [framing: raw]
        expected = [framing: replies]
        self.split = split
    }

    init(_ name: String, raw: String, framing: Framing, _ replies: [Reply], split: Bool = false) {
        self.init(name, raw: Array(raw.utf8), framing: framing, replies, split: split)
    }
}

/// An expected reply frame: matched on what clients may rely on (the id, the
/// error code, and the result where it is fixed), never on the message text.
indirect enum Reply: Sendable, CustomStringConvertible {
    /// An error response: id as JSON text (`null`, `7`, `"a"`), code.
    case error(String, Int)
    /// A success response: id as JSON text, and the result as compact JSON text,
    /// or nil when any result will do.
    case result(String, String?)
    /// A batch reply: an array of responses.
    case batch([Reply])

    static func parseError() -> Reply { .error("null", -32700) }
    static func invalidRequest(_ id: String = "null") -> Reply { .error(id, -32600) }

    /// Whether a parsed frame is this reply.
    func matches(_ frame: JSONValue) -> Bool {
        switch self {
        case .error(let id, let code):
            return frame["id"]?.description == id && frame["error"]?["code"] == .number(JSONNumber(code))
                && frame["result"] == nil && frame["jsonrpc"] == "2.0"
        case .result(let id, let result):
            guard frame["id"]?.description == id, frame["error"] == nil, let r = frame["result"],
                frame["jsonrpc"] == "2.0"
            else { return false }
            return result.map { r.description == $0 } ?? true
        case .batch(let replies):
            guard let members = frame.arrayValue, members.count == replies.count else { return false }
            return zip(replies, members).allSatisfy { $0.matches($1) }
        }
    }

    var description: String {
        switch self {
        case .error(let id, let code): "error(id \(id), \(code))"
        case .result(let id, let r): "result(id \(id), \(r ?? "any"))"
        case .batch(let rs): "batch\(rs)"
        }
    }
}

extension String {
    var bytes: [UInt8] { Array(utf8) }
}
