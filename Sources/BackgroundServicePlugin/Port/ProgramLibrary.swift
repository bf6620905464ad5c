import HostProtocol

/// The port's programs, built once per profile and shared by every instance of the
/// port one engine makes: a new one at each `plugin/reset` and, under `--os ios`, at
/// each process of the app.
///
/// Building the nine programs from their step builders cost about 450,000
/// instructions (callgrind), which the plugin-level fuzzer paid at every case's reset:
/// nearly a third of the plugin's time. A program is a description: its steps read and
/// write the state of the instance that runs them through the ``PortFrame`` they are
/// given (`$0.plugin`), never the instance that built them, so one built program serves
/// them all. What a builder may decide while building is the profile only (`if profile
/// == .strict`), which is why the library is kept per profile; anything else is read
/// when a step runs. Programs with test-only mutations (`Mutants/`) are not kept: the
/// mutations are built for one instance.
final class ProgramLibrary {
    private var programs: [Key: StepProgram<PortFrame>] = [:]

    /// An empty library.
    init() {}

    /// The program `name` under `profile`, built by `build` the first time.
    func program(_ name: String, profile: Profile, build: () -> StepProgram<PortFrame>) -> StepProgram<PortFrame> {
        let key = Key(name: name, profile: profile)
        if let built = programs[key] { return built }
        let built = build()
        programs[key] = built
        return built
    }

    /// How many programs are kept (for tests).
    var count: Int { programs.count }

    private struct Key: Hashable {
        let name: String
        let profile: Profile
    }
}
