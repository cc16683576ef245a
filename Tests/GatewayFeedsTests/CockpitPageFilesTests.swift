import Foundation
import Testing
import GatewayTestSupport
@testable import GatewaySupport
@testable import GatewayFeeds

/// Issue 39, the page as real files: `Feeds/Page/` holds the document, style sheet and script;
/// the binary serves exactly them (embedded by `scripts/embed-page.py`), and the script parses.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct CockpitPageFilesTests {
    static let page = repositoryRoot.appendingPathComponent("Sources/TrafficGateway/GatewayFeeds/Page")
    static var repositoryRoot: URL { fixtures.deletingLastPathComponent() }

    func run(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        p.currentDirectoryURL = Self.repositoryRoot
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func theBinaryServesThePagesFiles() throws {
        for (name, embedded) in [("index.html", CockpitPage.html), ("style.css", CockpitPage.css), ("app.js", CockpitPage.javascript)] {
            let file = try String(contentsOf: Self.page.appendingPathComponent(name), encoding: .utf8)
            #expect(embedded == file, "\(name) differs from its embedded copy: run python3 scripts/embed-page.py")
        }
        #expect(try run(["python3", "scripts/embed-page.py", "--check"]).status == 0)
    }

    /// The script parses (`node --check`), and a syntax error is caught: the check can fail.
    @Test func theScriptParsesAndASyntaxErrorIsCaught() throws {
        let script = Self.page.appendingPathComponent("app.js").path
        let good = try run(["node", "--check", script])
        #expect(good.status == 0, "\(good.errors)")
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("cockpit-broken-\(UUID()).js").path
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let text = try String(contentsOfFile: script, encoding: .utf8).replacingAll("function loadStatus() {", with: "function loadStatus() {{")
        try text.write(toFile: broken, atomically: true, encoding: .utf8)
        let bad = try run(["node", "--check", broken])
        #expect(bad.status != 0 && bad.errors.contains("SyntaxError"), "\(bad.errors)")
    }
}
