import Foundation
import HostProtocol
import HostTestSupport
import Testing

/// The bound on one batch's reply (issue 26, item 3): 4 MiB, past which the reply is one
/// `-32600` error with id null; below it every reply is the same bytes as before.
@Suite("Batch reply bound")
struct BatchReplyBoundTests {

    /// The replies to `count` `rpc.discover` requests sent one by one.
    static func singleReplies(_ count: Int) throws -> [String] {
        try Plugin.lines([], (1...count).map { req($0, "rpc.discover") })
    }

    @Test func aReplyWithinTheBoundIsTheResponsesAsBefore() throws {
        // About as many discovery documents as fit in 4 MiB, with the brackets and commas.
        let each = try Self.singleReplies(1)[0].utf8.count
        let fit = ((4 << 20) - 200) / (each + 2)
        let batch = "[" + (1...fit).map { req($0, "rpc.discover") }.joined(separator: ",") + "]"
        let lines = try Plugin.lines([], [batch])
        try #require(lines.count == 1)
        #expect(lines[0].utf8.count <= 4 << 20)
        #expect(lines[0] == "[" + (try Self.singleReplies(fit)).joined(separator: ",") + "]", "byte for byte as before")
    }

    @Test func aReplyPastTheBoundIsOneErrorAndThePluginKeepsServing() throws {
        // 1 MiB of requests whose responses are 42 KB each: a 900 MB reply without the bound.
        var members: [String] = []
        var size = 2
        while size < (1 << 20) - 100 {
            members.append(req(members.count + 1, "rpc.discover"))
            size += members.last!.utf8.count + 1
        }
        let script = [
            "[" + members.joined(separator: ",") + "]", #"{"jsonrpc":"2.0","id":"after","method":"plugin/state"}"#,
        ]
        let run = try Plugin.run([], script)
        #expect(!run.timedOut && run.status == 0, "stderr: \(run.stderr)")
        try #require(run.lines.count == 2, "\(run.lines.map { $0.prefix(200) })")
        #expect(run.stdout.count < 1 << 20, "bounded output: \(run.stdout.count) bytes")
        let error = try JSONParser.parse(Array(run.lines[0].utf8))
        #expect(error["id"] == .null)
        #expect(error["error"]?["code"] == .number(-32600))
        let message = error["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("longer than 4194304 bytes (4 MiB)"), "\(message)")
        #expect(message.contains("\(members.count) responses are withheld"), "\(message)")
        #expect(run.lines[1].contains(#""id":"after""#), "the plugin serves the next request")
    }

    @Test func tinyInvalidMembersAreBoundToo() throws {
        // `[1,1,...]`: each 2-byte member answered with a 90-byte error, 45 times the input.
        let batch = "[" + Array(repeating: "1", count: 300_000).joined(separator: ",") + "]"
        let run = try Plugin.run([], [batch])
        try #require(run.lines.count == 1)
        #expect(run.lines[0].hasPrefix(#"{"error":{"code":-32600,"message":"Invalid Request: the reply to this batch"#))
    }
}
