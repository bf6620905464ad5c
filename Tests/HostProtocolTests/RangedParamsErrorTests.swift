import HostProtocol
import Testing

/// The errors of the params whose members are ranges and name lists (`os/setPolicy`,
/// `plugin/dispatchSchedule`), pinned byte for byte: each text below is what the plugin
/// answered before these params were declared once (issue 24; the hand-written readers of
/// 634da78, run over a corpus of 363 requests, gave the same answers as the declarations).
/// Several wrong members: the first in declaration order is named.
@Suite struct RangedParamsErrorTests {
    static let policy: [(String, String)] = [
        (
            #"{"refreshBudgetSecs":-1}"#,
            #""refreshBudgetSecs" must be a number of seconds from 0.000000001 to 31536000, got -1"#
        ),
        (
            #"{"refreshBudgetSecs":0}"#,
            #""refreshBudgetSecs" must be a number of seconds from 0.000000001 to 31536000, got 0"#
        ),
        (#"{"watchdogGraceSecs":-1}"#, #""watchdogGraceSecs" must be a number of seconds from 0 to 31536000, got -1"#),
        (#"{"watchdogGraceSecs":"x"}"#, #""watchdogGraceSecs" must be a finite number, got string"#),
        (#"{"watchdogGraceSecs":null}"#, #""watchdogGraceSecs" must be a finite number, got null"#),
        (
            #"{"jetsamWithinSecs":31536001}"#,
            #""jetsamWithinSecs" must be a number of seconds from 0 to 31536000, got 31536001"#
        ),
        (
            #"{"refreshEarlyExpiryChance":1.0000001}"#,
            #""refreshEarlyExpiryChance" must be a number from 0 to 1, got 1.0000001"#
        ),
        (#"{"jetsamChance":"x"}"#, #""jetsamChance" must be a finite number, got string"#),
        (#"{"energyBudgetLaunches":"x"}"#, #""energyBudgetLaunches" must be an integer from 1 to 100000, got string"#),
        (#"{"energyBudgetLaunches":2.5}"#, #""energyBudgetLaunches" must be an integer from 1 to 100000, got 2.5"#),
        (
            #"{"maxConcurrentTasks":true}"#,
            #""maxConcurrentTasks" must be an integer from 1 to 100, or null (no limit), got boolean"#
        ),
        (
            #"{"maxConcurrentTasks":101}"#,
            #""maxConcurrentTasks" must be an integer from 1 to 100, or null (no limit), got 101"#
        ),
        (#"{"appStates":1}"#, #""appStates" must be a boolean, got number"#),
        (
            #"{"pluginLoadsLate":"x","refreshBudgetSecs":-1}"#,
            #""refreshBudgetSecs" must be a number of seconds from 0.000000001 to 31536000, got -1"#
        ),
        (
            #"{"jetsamChance":2,"energyBudgetLaunches":0}"#,
            #""energyBudgetLaunches" must be an integer from 1 to 100000, got 0"#
        ),
        (
            #"{"maxConcurrentTasks":0,"appStates":1}"#,
            #""maxConcurrentTasks" must be an integer from 1 to 100, or null (no limit), got 0"#
        ),
        (
            #"{"jetsamWithinSecs":-1,"jetsamChance":5}"#,
            #""jetsamWithinSecs" must be a number of seconds from 0 to 31536000, got -1"#
        ),
    ]

    static let schedule: [(String, String)] = [
        (#"{"choices":"ipc"}"#, #""choices" must be an array of queue names, got string"#),
        (#"{"choices":null}"#, #""choices" must be an array of queue names, got null"#),
        (#"{"choices":["ipc",1]}"#, #""choices[1]" must be "ipc" or "main", got 1"#),
        (#"{"choices":["ipc","x"]}"#, #""choices[1]" must be "ipc" or "main", got "x""#),
        (#"{"choices":[null]}"#, #""choices[0]" must be "ipc" or "main", got null"#),
        (#"{"seed":-1}"#, #""seed" must be an integer from 0 to 9223372036854775807, got -1"#),
        (#"{"seed":1.5}"#, #""seed" must be an integer from 0 to 9223372036854775807, got 1.5"#),
        (#"{"seed":"1"}"#, #""seed" must be an integer from 0 to 9223372036854775807, got string"#),
        (#"{"seed":null}"#, #""seed" must be an integer from 0 to 9223372036854775807, got null"#),
        (
            #"{"seed":9223372036854775808}"#,
            #""seed" must be an integer from 0 to 9223372036854775807, got 9223372036854775808"#
        ),
        (#"{"invalidations":"removed"}"#, #""invalidations" must be an array of timer invalidations, got string"#),
        (#"{"invalidations":[1]}"#, #""invalidations[0]" must be "removed" or "notRemoved", got 1"#),
        (#"{"invalidations":["gone"]}"#, #""invalidations[0]" must be "removed" or "notRemoved", got "gone""#),
        (#"{"invalidations":null}"#, #""invalidations" must be an array of timer invalidations, got null"#),
        (#"{"choices":["x"],"seed":-1}"#, #""choices[0]" must be "ipc" or "main", got "x""#),
        (#"{"seed":-1,"invalidations":[3]}"#, #""seed" must be an integer from 0 to 9223372036854775807, got -1"#),
        (#"{"choices":[{"a":1}]}"#, #""choices[0]" must be "ipc" or "main", got {"a":1}"#),
    ]

    @Test(arguments: policy)
    func policyError(_ params: String, _ message: String) throws {
        let json = try JSONParser.parse(Array(params.utf8))
        do {
            _ = try IOSPolicy.Update(json: json)
            Issue.record("\(params) was accepted")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test(arguments: schedule)
    func scheduleError(_ params: String, _ message: String) throws {
        let json = try JSONParser.parse(Array(params.utf8))
        do {
            _ = try PluginDispatchSchedule.Params(json: json)
            Issue.record("\(params) was accepted")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("declared members write as the readers read: exact seconds, null to remove a limit, empty lists left out")
    func writing() throws {
        var update = IOSPolicy.Update(refreshBudgetSecs: 0.000_000_001, maxConcurrentTasks: .some(nil))
        update.appStates = .init(appStates: true, jetsamChance: 0.25)
        #expect(
            String(decoding: update.json.compactBytes, as: UTF8.self)
                == #"{"appStates":true,"jetsamChance":0.25,"maxConcurrentTasks":null,"refreshBudgetSecs":0.000000001}"#)
        #expect(try IOSPolicy.Update(json: update.json) == update)
        let policy = IOSPolicy.defaults.applying(update)
        #expect(policy.maxConcurrentTasks == nil && policy.refreshBudgetSecs == 0.000_000_001)
        #expect(try IOSPolicy(json: policy.json) == policy)
        #expect(try IOSPolicy.Update(json: .object([:])) == IOSPolicy.Update())
        #expect(String(decoding: PluginDispatchSchedule.Params().json.compactBytes, as: UTF8.self) == "{}")
        let params = PluginDispatchSchedule.Params(choices: [.main], seed: 7, invalidations: [.notRemoved])
        #expect(try PluginDispatchSchedule.Params(json: params.json) == params)
    }
}
