import Foundation
import GDL90
import GatewayFuzzSupport

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzTarget.selected.run(Array(UnsafeBufferPointer(start: bytes, count: count)))
    return 0
}

#if FUZZING
/// libFuzzer's driver (SwiftPM names an executable's entry point `<module>_main`, so libFuzzer's
/// own `main` is not used: this entry point hands over to the driver).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("gatewayd_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var args = argv
    return LLVMFuzzerRunDriver(&count, &args, fuzzOne)
}
#else
/// Without `-sanitize=fuzzer` (plain builds, CI): replays files or folders of inputs through a
/// target, e.g. the seed corpus and every crash found so far, as regression tests.
@main
struct FuzzReplay {
    static func main() {
        let args = CommandLine.arguments.dropFirst()
        guard let name = args.first, let target = FuzzTarget(rawValue: name) else {
            print("usage: gatewayd-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE|DIR…")
            print("(built with -sanitize=fuzzer,address -DFUZZING it is a libFuzzer binary: see scripts/fuzz.sh)")
            exit(2)
        }
        var count = 0
        for path in args.dropFirst() {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { continue }
            let files = isDir.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 } : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                target.run(Array(data))
                count += 1
            }
        }
        print("gatewayd-fuzz \(name): \(count) inputs, no crash")
    }
}
#endif
