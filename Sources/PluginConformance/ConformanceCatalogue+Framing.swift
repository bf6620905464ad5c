import HostProtocol

/// Section 1: processes and framing.
extension ConformanceCatalogue {
    /// A request every plugin answers with `result: null` at once.
    static func ping(_ id: ID) -> String { request(id, "cancelCancelListener") }

    /// The checks of section 1.
    static let framing: [ConformanceCheck] = [
        ConformanceCheck(
            "framing.ndjson.request-reply", section: 1,
            rule: "ndjson: one compact JSON text per line, \\n-terminated; replies are ndjson lines.",
            flags: ["--framing", "ndjson"]
        ) { _ in [.send(ping(1), expect: [result(1)])] },
        ConformanceCheck(
            "framing.ndjson.crlf", section: 1,
            rule: "ndjson: a \\r before the \\n is ignored.", flags: ["--framing", "ndjson"]
        ) { _ in [.send([.text(ping(1) + "\r\n"), .text(ping(2) + "\r\n")], expect: [result(1), result(2)])] },
        ConformanceCheck(
            "framing.ndjson.empty-lines-skipped", section: 1,
            rule: "ndjson: empty lines are skipped (no reply, no error).", flags: ["--framing", "ndjson"]
        ) { _ in [.send([.text("\n\r\n" + ping(1) + "\n\n\r\n\n" + ping(2) + "\n\n")], expect: [result(1), result(2)])]
        },
        ConformanceCheck(
            "framing.ndjson.split-writes", section: 1,
            rule: "ndjson: a frame split across writes is one frame; two frames in one write are two.",
            flags: ["--framing", "ndjson"]
        ) { _ in
            let a = ping(1)
            return [
                .partial([.text(String(a.prefix(10))), .text(String(a.dropFirst(10).prefix(20)))]),
                .send(
                    [.text(String(a.dropFirst(30)) + "\n" + ping(2) + "\n" + ping(3) + "\n")],
                    expect: [result(1), result(2), result(3)]),
            ]
        },
        ConformanceCheck(
            "framing.ndjson.garbage-line", section: 1,
            rule: "A frame that is not valid JSON is answered with -32700, id null; the plugin keeps serving.",
            flags: ["--framing", "ndjson"]
        ) { _ in [.send([.text("hello, plugin\n"), .json(ping(1))], expect: [failure(.null, -32700), result(1)])] },
        ConformanceCheck(
            "framing.lsp.request-reply", section: 1,
            rule: "lsp: Content-Length: N, a blank line, then N bytes; replies are LSP frames.",
            flags: ["--framing", "lsp"], inputFraming: .lsp
        ) { _ in [.send(ping(1), ping(2), expect: [result(1), result(2)])] },
        ConformanceCheck(
            "framing.lsp.case-insensitive-headers", section: 1,
            rule: "lsp: header names are case-insensitive.", flags: ["--framing", "lsp"], inputFraming: .lsp
        ) { _ in
            [
                .send(
                    [
                        .text(lsp(ping(1), header: "content-length")), .text(lsp(ping(2), header: "CONTENT-LENGTH")),
                        .text(lsp(ping(3), header: "cOnTeNt-LeNgTh")),
                    ],
                    expect: [result(1), result(2), result(3)])
            ]
        },
        ConformanceCheck(
            "framing.lsp.content-type-accepted", section: 1,
            rule: "lsp: optional other headers (Content-Type) are accepted, before or after Content-Length.",
            flags: ["--framing", "lsp"], inputFraming: .lsp
        ) { _ in
            let a = ping(1)
            let b = ping(2)
            return [
                .send(
                    [
                        .text(
                            "Content-Length: \(a.utf8.count)\r\nContent-Type: application/vscode-jsonrpc; "
                                + "charset=utf-8\r\n\r\n\(a)"
                        ),
                        .text("Content-Type: application/json\r\nContent-Length: \(b.utf8.count)\r\n\r\n\(b)"),
                    ], expect: [result(1), result(2)])
            ]
        },
        ConformanceCheck(
            "framing.lsp.output-content-length-only", section: 1,
            rule: "lsp: output frames carry Content-Length only (any other header in the output fails the check).",
            flags: ["--framing", "lsp"], inputFraming: .lsp,
            accepts: ["the Content-Length header name in any case, spaces around its value"]
        ) { _ in
            [.send(ping(1), request("x", "os/advanceTime", #"{"seconds":2.5}"#), expect: [result(1), now("x", "2.5")])]
        },
        ConformanceCheck(
            "framing.lsp.split-writes", section: 1,
            rule: "lsp: a frame split across writes (inside the header, the blank line and the body) is one frame.",
            flags: ["--framing", "lsp"], inputFraming: .lsp
        ) { _ in
            let f = lsp(ping(1))
            let cuts = [7, 17, 19, 30]
            var pieces: [ConformanceInput] = []
            var start = f.startIndex
            for cut in cuts {
                let end = f.index(f.startIndex, offsetBy: cut)
                pieces.append(.text(String(f[start..<end])))
                start = end
            }
            return [
                .partial(pieces), .send([.text(String(f[start...]) + lsp(ping(2)))], expect: [result(1), result(2)]),
            ]
        },
        ConformanceCheck(
            "framing.lsp.bad-header.missing-length", section: 1,
            rule:
                "lsp: a header block without Content-Length is answered with -32700, id null, and skipped up to its "
                + "blank line.",
            inputFraming: .lsp
        ) { _ in
            [
                .send(
                    [.text("Content-Type: application/json\r\n\r\n"), .json(ping(1))],
                    expect: [failure(.null, -32700), result(1)])
            ]
        },
        ConformanceCheck(
            "framing.lsp.bad-header.negative-length", section: 1,
            rule: "lsp: a negative Content-Length is answered with -32700, id null, and skipped up to its blank line.",
            inputFraming: .lsp
        ) { _ in
            [
                .send(
                    [.text("Content-Length: -5\r\n\r\n"), .json(ping(1))], expect: [failure(.null, -32700), result(1)])
            ]
        },
        ConformanceCheck(
            "framing.lsp.bad-header.not-a-number", section: 1,
            rule:
                "lsp: a Content-Length that is not a number is answered with -32700, id null, and skipped up to its "
                + "blank line.",
            inputFraming: .lsp
        ) { _ in
            [
                .send(
                    [.text("Content-Length: twelve\r\n\r\n"), .json(ping(1))],
                    expect: [failure(.null, -32700), result(1)])
            ]
        },
        ConformanceCheck(
            "framing.lsp.malformed-body", section: 1,
            rule:
                "lsp: a body that is not JSON is answered with -32700, id null, framed as LSP; the plugin keeps "
                + "serving.",
            inputFraming: .lsp
        ) { _ in [.send([.text(lsp("{not json}")), .json(ping(1))], expect: [failure(.null, -32700), result(1)])] },
        ConformanceCheck(
            "framing.auto.ndjson", section: 1,
            rule: "auto (the default): a first byte { means ndjson; replies are ndjson."
        ) { _ in [.send(ping(1), expect: [result(1)])] },
        ConformanceCheck(
            "framing.auto.batch-bracket", section: 1,
            rule: "auto: a first byte [ means ndjson."
        ) { _ in [.send("[" + ping(1) + "]", expect: [batch([result(1)])])] },
        ConformanceCheck(
            "framing.auto.leading-whitespace", section: 1,
            rule: "auto: the first non-whitespace byte decides (whitespace before it is skipped)."
        ) { _ in [.send([.text("\r\n \t\n" + ping(1) + "\n")], expect: [result(1)])] },
        ConformanceCheck(
            "framing.auto.lsp", section: 1,
            rule: "auto: any other first byte means lsp, and replies use the detected framing (LSP).",
            inputFraming: .lsp
        ) { _ in [.send(ping(1), request(2, "no/such/method"), expect: [result(1), failure(2, -32601)])] },
        ConformanceCheck(
            "framing.oversized.ndjson", section: 1,
            rule:
                "A frame longer than --max-frame-bytes is answered with -32600, id null, and skipped; the plugin keeps "
                + "serving.",
            flags: ["--max-frame-bytes", "100"]
        ) { _ in
            let long = request(1, "startKeepalive", #"{"label":"\#(String(repeating: "x", count: 100))"}"#)
            return [
                .send(long, ping(2), expect: [failure(.null, -32600), result(2)]),
                .send(request(3, "os/pendingTaskRequests"), expect: [pending(3, [])]),
            ]
        },
        ConformanceCheck(
            "framing.oversized.lsp", section: 1,
            rule:
                "lsp: a body longer than --max-frame-bytes is answered with -32600, id null, and skipped; the plugin "
                + "keeps serving.",
            flags: ["--max-frame-bytes", "100"], inputFraming: .lsp
        ) { _ in
            let long = request(1, "startKeepalive", #"{"label":"\#(String(repeating: "x", count: 100))"}"#)
            return [.send(long, ping(2), expect: [failure(.null, -32600), result(2)])]
        },
        ConformanceCheck(
            "framing.oversized.default-limit", section: 1,
            rule:
                "The default --max-frame-bytes is 1 MiB: a frame of 1,048,576 bytes is served, one byte more gets "
                + "-32600, id null."
        ) { _ in
            func padded(_ id: Int, to size: Int) -> String {
                let head = #"{"jsonrpc":"2.0","id":\#(id),"method":"cancelCancelListener","params":{"pad":""#
                let tail = #""}}"#
                return head + String(repeating: "p", count: size - head.utf8.count - tail.utf8.count) + tail
            }
            return [
                .send(
                    padded(1, to: 1_048_576), padded(2, to: 1_048_577), ping(3),
                    expect: [result(1), failure(.null, -32600), result(3)])
            ]
        },
        ConformanceCheck(
            "framing.malformed-json", section: 1,
            rule: "A frame that is not valid JSON is answered with -32700, id null; the plugin keeps serving."
        ) { _ in
            [
                .send(
                    [
                        .text(#"{"jsonrpc":"2.0","id":1,"method""# + "\n"), .text("{\"jsonrpc\":\"2.0\"}}\n"),
                        .json(ping(2)),
                    ],
                    expect: [failure(.null, -32700), failure(.null, -32700), result(2)])
            ]
        },
        ConformanceCheck(
            "framing.invalid-utf8", section: 1,
            rule: "A frame that is not valid UTF-8 is answered with -32700, id null; the plugin keeps serving."
        ) { _ in
            let bad: [UInt8] =
                Array(#"{"jsonrpc":"2.0","id":1,"method":"cancel"#.utf8) + [0xC3, 0x28] + Array("\"}\n".utf8)
            let overlong: [UInt8] =
                Array(#"{"jsonrpc":"2.0","id":2,"method":""#.utf8) + [0xC0, 0xAF] + Array("\"}\n".utf8)
            return [
                .send(
                    [.raw(bad), .raw(overlong), .json(ping(3))],
                    expect: [failure(.null, -32700), failure(.null, -32700), result(3)])
            ]
        },
        ConformanceCheck(
            "process.eof.exit-0", section: 1,
            rule: "The plugin answers what it has read, then exits 0 on stdin EOF."
        ) { _ in [.exit([.json(ping(1))], closeStdin: true, expect: [result(1)])] },
    ]
}
