// The entry points of this fuzz target: see FuzzDriver.swift.
import FuzzDriver

@_cdecl("DecoderFuzzer_main")
func decoderFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { data, size in decoderFuzzerTestOneInput(data, size) }
}

/// The conventional libFuzzer symbol.
@_cdecl("LLVMFuzzerTestOneInput")
public func decoderFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    DecoderFuzzer.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
