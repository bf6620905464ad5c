/// Numbers written either way (issue 27, item 5): serde_json's forms (`1e16`, `1e-7`,
/// `9500000000000000.0`, `-0.0`, `28.0`) and Swift's (`1e+16`, `1e-07`, `9.5e+15`, `0`,
/// `28`) in ids, `os/advanceTime`'s seconds and `startKeepalive`'s members, in both
/// framings. The same inputs are decoder fuzz seeds
/// (`FuzzTargets/Seeds/decoder/numbers-serde-and-swift-forms*`).
extension HandWrittenCorpus {
    static var numberForms: [CorpusCase] {
        func advance(_ id: String, _ seconds: String) -> String {
            #"{"jsonrpc":"2.0","id":\#(id),"method":"os/advanceTime","params":{"seconds":\#(seconds)}}"#
        }
        let ids = ["1e16", "1e+16", "9500000000000000.0", "9.5e+15", "-0.0", "0", "1e-7", "1e-07", "2E+0"]
        return [
            CorpusCase(
                "ids in serde's and Swift's number forms, echoed as written",
                frames: ids.map { #"{"jsonrpc":"2.0","id":\#($0),"method":"os/pendingTaskRequests"}"# },
                ids.map { .result($0, "[]") }),
            CorpusCase(
                "os/advanceTime seconds in serde's and Swift's forms",
                frames: [
                    advance("1", "1e-7"), advance("2", "1e-07"), advance("3", "9500.0"), advance("4", "9.5e+3"),
                    advance("5", "-0.0"), advance("6", "0.0"), advance("7", "1E1"),
                ],
                [
                    .result("1", #"{"now":0.0000001}"#), .result("2", #"{"now":0.0000002}"#),
                    .result("3", #"{"now":9500.0000002}"#), .result("4", #"{"now":19000.0000002}"#),
                    .result("5", #"{"now":19000.0000002}"#), .result("6", #"{"now":19000.0000002}"#),
                    .result("7", #"{"now":19010.0000002}"#),
                ]),
            CorpusCase(
                "startKeepalive members in serde's form, read as their values",
                frames: [
                    #"{"jsonrpc":"2.0","id":1,"method":"startKeepalive","params":{"iosSafetyTimeoutSecs":1e16,"#
                        + #""iosProcessingSafetyTimeoutSecs":9500000000000000.0,"iosEarliestRefreshBeginMinutes":1e-7,"#
                        + #""iosEarliestProcessingBeginMinutes":-0.0}}"#,
                    #"{"jsonrpc":"2.0","id":2,"method":"os/pendingTaskRequests"}"#,
                ],
                [
                    .result("1", "null"),
                    .result(
                        "2",
                        #"[{"earliestBeginDate":0,"identifier":"com.example.app.bg-processing","kind":"processing","#
                            + #""requiresExternalPower":false,"requiresNetworkConnectivity":false},"#
                            + #"{"earliestBeginDate":0.000006,"#
                            + #""identifier":"com.example.app.bg-refresh","kind":"refresh","#
                            + #""requiresExternalPower":false,"requiresNetworkConnectivity":false}]"#),
                ]),
        ]
    }
}
