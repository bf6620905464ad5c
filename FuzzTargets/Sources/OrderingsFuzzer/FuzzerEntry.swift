// The entry points of this fuzz target: see FuzzDriver.swift.
import FuzzDriver

@_cdecl("OrderingsFuzzer_main")
func orderingsFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { data, size in orderingsFuzzerTestOneInput(data, size) }
}

/// The conventional libFuzzer symbol.
@_cdecl("LLVMFuzzerTestOneInput")
public func orderingsFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    OrderingsFuzzer.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
