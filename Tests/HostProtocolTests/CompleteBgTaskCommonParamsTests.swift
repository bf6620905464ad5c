import HostProtocol
import Testing

/// `CompleteBgTask.Params.common`: the shapes nearly every `completeBgTask` sends, read
/// without the decoder on the plugin's invoke path, must read as the decoder reads them,
/// strict and lenient; any other shape must be left to the decoder.
@Suite("CompleteBgTask.Params.common: the fast path agrees with the decoder")
struct CompleteBgTaskCommonParamsTests {
    @Test(
        "common shapes are read, and read as the decoder reads them",
        arguments: [
            ("{}", nil), (#"{"success":true}"#, true), (#"{"success":false}"#, false),
            (#"{ "success" : false }"#, false),
            // The parser keeps the last of a repeated key, and unescapes keys, before either reading.
            (#"{"success":false,"success":true}"#, true), (#"{"\u0073uccess":true}"#, true),
        ] as [(String, Bool?)])
    func commonShapes(text: String, success: Bool?) throws {
        let value = json(text)
        let common = try #require(CompleteBgTask.Params.common(value))
        #expect(common.success == success)
        #expect(try common == CompleteBgTask.Params(json: value))
        #expect(try common == CompleteBgTask.Params.lenient(value).0)
    }

    @Test(
        "any other shape is left to the decoder",
        arguments: [
            #"{"success":null}"#, #"{"success":1}"#, #"{"success":"true"}"#, #"{"other":true}"#,
            #"{"success":true,"other":1}"#, #"{"other":1,"success":false}"#, #"{"Success":true}"#,
            #"{"success ":true}"#, "[]", "null", "true",
        ])
    func otherShapes(_ text: String) {
        #expect(CompleteBgTask.Params.common(json(text)) == nil)
    }
}
