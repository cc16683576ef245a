import Foundation
import GDL90
import TrafficGateway

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzTarget.selected.run(Array(UnsafeBufferPointer(start: bytes, count: count)))
    return 0
}

#if !FUZZING
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
