import HostProtocol
import Testing

/// `Envelope.parse` classifies a single object from its members as they are parsed,
/// without building the object; every frame must come out exactly as the full
/// parse followed by `Envelope.classify` makes it, errors (and their offsets) included.
@Suite("Envelope.parse: the one-object fast path")
struct EnvelopeFastPathTests {
    /// The full path: parse the whole value, then classify it.
    static func fullPath(_ text: [UInt8]) -> Envelope {
        do {
            return Envelope.classify(try JSONParser.parse(text))
        } catch {
            return .single(.invalid(id: .null, error: .parseError(error.description)))
        }
    }

    static let corpus: [String] = [
        #"{"id":1,"jsonrpc":"2.0","method":"cancelCancelListener"}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"completeBgTask","params":{"success":true}}"#,
        #" { "method" : "startKeepalive" , "jsonrpc" : "2.0" , "id" : "a" , "params" : { } } "#,
        #"{"jsonrpc":"2.0","method":"os/taskLaunched","params":{"identifier":"x"}}"#,
        #"{"id":1,"jsonrpc":"2.0","result":null}"#,
        #"{"error":{"code":-32000,"message":"m","data":{"reason":"stopped"}},"id":2,"jsonrpc":"2.0"}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","id":2}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"a","method":"b"}"#,
        #"{"\u0069d":1,"jsonrpc":"2.0","method":"m"}"#,
        #"{"id":1,"id":1,"jsonrpc":"2.0","method":"m"}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","extra":[1,{"x":null}],"extra":2}"#,
        #"{"id":1,"jsonrpc":"1.0","method":"m"}"#,
        #"{"id":[1],"jsonrpc":"2.0","method":"m"}"#,
        #"{"id":1,"jsonrpc":"2.0","method":7}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m","params":3}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"cancel\u0043ancelListener"}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"cancelCancelListenerX"}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"cancelCancelListener"} x"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m",}"#,
        #"{"id":1,"jsonrpc":"2.0","method":"m""#,
        #"{"id":1 "jsonrpc":"2.0"}"#,
        #"{"id" 1}"#,
        #"{}"#,
        #"{"#,
        #"[{"id":1,"jsonrpc":"2.0","method":"m"}]"#,
        #"[]"#,
        #""x""#,
        #"null"#,
        "",
        String(repeating: "{\"a\":", count: 300) + "1" + String(repeating: "}", count: 300),
        "{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"m\u{301}\"}",
        "{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"a\tb\"}",
    ]

    @Test(arguments: corpus)
    func sameAsTheFullParse(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(Envelope.parse(bytes[...]) == Self.fullPath(bytes))
    }

    /// Every truncation and every one-byte change of a few frames.
    @Test func sameAsTheFullParseForEveryCutAndByteChange() {
        let seeds = Self.corpus.prefix(6).map { Array($0.utf8) }
        let replacements: [UInt8] = [0x22, 0x2C, 0x3A, 0x7B, 0x7D, 0x5B, 0x5D, 0x5C, 0x20, 0x31, 0x00, 0xFF]
        var checked = 0
        for seed in seeds {
            for cut in 0...seed.count {
                let frame = Array(seed[..<cut])
                #expect(Envelope.parse(frame[...]) == Self.fullPath(frame), "\(String(decoding: frame, as: UTF8.self))")
                checked += 1
            }
            for i in seed.indices {
                for r in replacements where seed[i] != r {
                    var frame = seed
                    frame[i] = r
                    let text = String(decoding: frame, as: UTF8.self)
                    #expect(Envelope.parse(frame[...]) == Self.fullPath(frame), "\(text)")
                    checked += 1
                }
            }
        }
        #expect(checked > 1_000)
    }
}
