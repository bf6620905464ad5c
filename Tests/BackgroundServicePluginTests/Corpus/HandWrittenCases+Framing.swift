import HostProtocol
import HostTestSupport

/// The hand-written corpus, continued: LSP header defects, frames split across reads,
/// and inputs the fuzzers found.
extension HandWrittenCorpus {
    // MARK: LSP headers

    static var lspHeaders: [CorpusCase] {
        let body = pending
        func frame(_ headers: String, _ body: String = body) -> String { headers + body }
        return [
            CorpusCase(
                "missing Content-Length", raw: "Content-Type: application/json\r\n\r\n", framing: .lsp,
                [.parseError()]),
            CorpusCase("empty header line only", raw: "\r\n", framing: .lsp, []),
            CorpusCase("negative Content-Length", raw: "Content-Length: -5\r\n\r\n", framing: .lsp, [.parseError()]),
            CorpusCase(
                "non-numeric Content-Length", raw: "Content-Length: abc\r\n\r\n", framing: .lsp, [.parseError()]),
            CorpusCase("hex Content-Length", raw: "Content-Length: 0x10\r\n\r\n", framing: .lsp, [.parseError()]),
            CorpusCase("exponent Content-Length", raw: "Content-Length: 1e3\r\n\r\n", framing: .lsp, [.parseError()]),
            CorpusCase(
                "fractional Content-Length", raw: "Content-Length: 10.0\r\n\r\n", framing: .lsp, [.parseError()]),
            CorpusCase(
                "plus-signed Content-Length", raw: "Content-Length: +10\r\n\r\n", framing: .lsp, [.parseError()]),
            CorpusCase("empty Content-Length", raw: "Content-Length:\r\n\r\n", framing: .lsp, [.parseError()]),
            CorpusCase(
                "two numbers in Content-Length", raw: "Content-Length: 1 2\r\n\r\n", framing: .lsp, [.parseError()]),
            CorpusCase(
                "19-digit Content-Length", raw: "Content-Length: 1234567890123456789\r\n\r\n", framing: .lsp,
                [.parseError()]),
            CorpusCase(
                "40-digit Content-Length", raw: "Content-Length: " + String(repeating: "9", count: 40) + "\r\n\r\n",
                framing: .lsp, [.parseError()]),
            CorpusCase(
                "repeated Content-Length, same value", raw: "Content-Length: 5\r\nContent-Length: 5\r\n\r\n",
                framing: .lsp, [.parseError()]),
            CorpusCase(
                "repeated Content-Length, different values", raw: "Content-Length: 5\r\ncontent-length: 6\r\n\r\n",
                framing: .lsp, [.parseError()]),
            CorpusCase("header line without a colon", raw: "Content-Length 5\r\n\r\n", framing: .lsp, [.parseError()]),
            CorpusCase(
                "CR without LF inside the header block", raw: "Content-Length: 5\rContent-Type: x\r\n\r\n",
                framing: .lsp, [.parseError()]),
            CorpusCase("NUL in a header", raw: "Content-Length: 5\u{0}\r\n\r\n", framing: .lsp, [.parseError()]),
            CorpusCase(
                "a header block over 8 KiB",
                raw: "X-Padding: " + String(repeating: "p", count: 9_000) + "\r\nContent-Length: 2\r\n\r\n",
                framing: .lsp, [.parseError()]),
            CorpusCase(
                "a header block of many short lines over 8 KiB",
                raw: String(repeating: "X: y\r\n", count: 2_000) + "\r\n", framing: .lsp, [.parseError()]),
            CorpusCase(
                "Content-Length one past the limit",
                raw: "Content-Length: 1048577\r\n\r\n".bytes + [UInt8](repeating: 0x20, count: 1_048_577),
                framing: .lsp, [.invalidRequest()]),
            CorpusCase("Content-Length 0", raw: "Content-Length: 0\r\n\r\n", framing: .lsp, [.parseError()]),
            // Well-formed variants, for contrast.
            CorpusCase(
                "header name in any case", raw: frame("cOnTeNt-LeNgTh: \(body.utf8.count)\r\n\r\n"), framing: .lsp,
                [.result("7", "[]")]),
            CorpusCase(
                "Content-Type and unknown headers",
                raw: frame(
                    "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nX-Other: 1\r\nContent-Length: "
                        + "\(body.utf8.count)\r\n\r\n"
                ), framing: .lsp, [.result("7", "[]")]),
            CorpusCase(
                "LF-only header lines", raw: frame("Content-Length: \(body.utf8.count)\n\n"), framing: .lsp,
                [.result("7", "[]")]),
            CorpusCase(
                "spaces and tabs around the value", raw: frame("Content-Length: \t \(body.utf8.count) \t\r\n\r\n"),
                framing: .lsp, [.result("7", "[]")]),
            CorpusCase(
                "leading zeros", raw: frame("Content-Length: 000\(body.utf8.count)\r\n\r\n"), framing: .lsp,
                [.result("7", "[]")]),
            CorpusCase(
                "blank lines between frames", raw: "\r\n\r\n\n" + frame("Content-Length: \(body.utf8.count)\r\n\r\n"),
                framing: .lsp, [.result("7", "[]")]),
            CorpusCase(
                "a bad header, then a good frame",
                raw: "Content-Length: x\r\n\r\n" + frame("Content-Length: \(body.utf8.count)\r\n\r\n"), framing: .lsp,
                [.parseError(), .result("7", "[]")]),
            CorpusCase(
                "two frames back to back",
                raw: frame("Content-Length: \(body.utf8.count)\r\n\r\n")
                    + frame("Content-Length: \(body.utf8.count)\r\n\r\n"), framing: .lsp,
                [.result("7", "[]"), .result("7", "[]")]),
            CorpusCase(
                "a body of ndjson with its newline",
                raw: frame("Content-Length: \(body.utf8.count + 1)\r\n\r\n", body + "\n"), framing: .lsp,
                [.result("7", "[]")]),
        ]
    }

    // MARK: Frames split across reads

    static var split: [CorpusCase] {
        let headerAndBody = "Content-Length: \(pending.utf8.count)\r\n\r\n" + pending
        return [
            CorpusCase("a request split across reads", body: pending, [.result("7", "[]")], split: true),
            CorpusCase(
                "a bad frame split across reads", body: #"{"jsonrpc":"2.0","id":7,"method":"#, [.parseError()],
                split: true),
            CorpusCase(
                "a batch split across reads", body: "[\(pending),\(pending)]",
                [.batch([.result("7", "[]"), .result("7", "[]")])], split: true),
            CorpusCase(
                "UTF-8 split inside a character",
                body: #"{"jsonrpc":"2.0","id":"\#u{1F600}\#u{1F600}\#u{1F600}","method":"os/pendingTaskRequests"}"#,
                [.result("\"\u{1F600}\u{1F600}\u{1F600}\"", "[]")], split: true),
            CorpusCase(
                "CRLF split between CR and LF", raw: pending + "\r\n", framing: .ndjson, [.result("7", "[]")],
                split: true),
            CorpusCase(
                "LSP header split across reads", raw: headerAndBody, framing: .lsp, [.result("7", "[]")], split: true),
            CorpusCase(
                "a bad LSP header split across reads", raw: "Content-Length: -1\r\nX: y\r\n\r\n", framing: .lsp,
                [.parseError()], split: true),
        ]
    }

    // MARK: Found by the fuzzers

    /// Inputs the libFuzzer targets found (docs/reliability.md lists them). The
    /// orderings target's first finding was in-process only (an engine released
    /// with a `waitForCancel` pending crashed); its wire form is a pending
    /// `waitForCancel` answered by `plugin/reset`, kept here as a case.
    static var fuzzFindings: [CorpusCase] {
        [
            CorpusCase(
                "a pending waitForCancel at the end of a case (fuzz finding)",
                body: #"{"jsonrpc":"2.0","id":"w","method":"waitForCancel"}"#, [.error(#""w""#, -32000)]),
            // Orderings finding 2: an invalid message or a response object carrying the id
            // of the pending waitForCancel untracked that id, so a later request could reuse it.
            CorpusCase(
                "invalid messages with a pending request's id leave it pending (fuzz finding)",
                frames: [
                    #"{"jsonrpc":"2.0","id":"w","method":"waitForCancel"}"#,
                    #"{"jsonrpc":"2.0","id":"w","method":"stopKeepalive","params":null}"#,
                    #"{"jsonrpc":"2.0","id":"w","result":5}"#,
                    #"{"jsonrpc":"1.0","id":"w","method":"plugin/state"}"#,
                    #"[{"jsonrpc":"2.0","id":"w","method":7}]"#,
                    #"{"jsonrpc":"2.0","id":"w","method":"os/pendingTaskRequests"}"#,
                ],
                [
                    .invalidRequest(#""w""#), .invalidRequest(#""w""#), .invalidRequest(#""w""#),
                    .batch([.invalidRequest(#""w""#)]),
                    .invalidRequest(#""w""#), .error(#""w""#, -32000),
                ]),
            CorpusCase(
                "a batch holding a waitForCancel (fuzz finding)",
                body:
                    #"[{"jsonrpc":"2.0","id":"w","method":"waitForCancel"},{"jsonrpc":"2.0","id":8,"#
                    + #""method":"os/pendingTaskRequests"}]"#,
                [.batch([.error(#""w""#, -32000), .result("8", "[]")])]),
        ]
    }
}
