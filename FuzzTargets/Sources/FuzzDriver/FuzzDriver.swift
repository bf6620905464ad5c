// libFuzzer's driver as a fuzz target's entry point.
//
// SwiftPM links executables with `--defsym main=<Module>_main` and renames Swift's
// entry point to `<Module>_main`, which would clash with the `main` that
// `-sanitize=fuzzer` links in. So each target is compiled with -parse-as-library and
// defines `<Module>_main` itself (FuzzerEntry.swift), which calls `runLibFuzzer`;
// that hands control to `LLVMFuzzerRunDriver` from the same libFuzzer runtime, so all
// of libFuzzer's flags work as usual. Each target also exports the conventional
// `LLVMFuzzerTestOneInput`, so that other drivers (a plain `-fsanitize=fuzzer` main,
// AFL++'s libFuzzer mode) can use it too.

/// One input's test: the bytes libFuzzer made; returns 0.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzTest
) -> CInt

/// Runs libFuzzer's driver over `test` with the program's arguments.
public func runLibFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ test: FuzzTest)
    -> CInt
{
    var count = argc
    var arguments = argv
    return llvmFuzzerRunDriver(&count, &arguments, test)
}
