import Foundation
import Testing
@testable import GatewaySimulation

@Suite(.timeLimit(.minutes(5))) struct CommandBenchmarkTests {
    /// The bench says how each executable links the Swift runtime (its figures include the start):
    /// by the runtime's name in the file's dynamic string table, wherever it lies in the first megabytes.
    @Test func tellsAStaticRuntimeFromADynamicOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatewayd-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = [UInt8](repeating: 0x7F, count: 200_000)
        let dynamic = folder.appendingPathComponent("dynamic"), statically = folder.appendingPathComponent("static")
        try Data(bytes).write(to: statically)
        bytes.replaceSubrange(136_796..<(136_796 + 15), with: Array("libswiftCore.so".utf8))
        try Data(bytes).write(to: dynamic)
        #expect(CommandBenchmark.swiftRuntimeLinking(of: dynamic.path).contains("linked dynamically"))
        #expect(CommandBenchmark.swiftRuntimeLinking(of: statically.path).contains("linked statically"))
        #expect(CommandBenchmark.swiftRuntimeLinking(of: folder.appendingPathComponent("none").path) == "not readable")
        // At the very end of the file it counts; cut by the end, it does not.
        try Data(Array("xxlibswiftCore.so".utf8)).write(to: dynamic)
        #expect(CommandBenchmark.swiftRuntimeLinking(of: dynamic.path).contains("linked dynamically"))
        try Data(Array("xxlibswiftCore.s".utf8)).write(to: statically)
        #expect(CommandBenchmark.swiftRuntimeLinking(of: statically.path).contains("linked statically"))
    }
}
