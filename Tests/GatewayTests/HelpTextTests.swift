import Foundation
import Testing
import GatewayTestSupport

/// Every `--help` as a person reads it in an 80-column terminal (issue 28): no line wider than 80
/// columns, no example command broken across lines, and no option's paragraph at the left margin
/// under its option.
@Suite(.timeLimit(.minutes(10)), .tags(.process), .slow) struct HelpTextTests {
    static let commands: [[String]] = [
        [], ["run"], ["tail"], ["replay"], ["decode"], ["fisb"], ["send"], ["simulate"], ["bench"],
        ["notams"], ["notams", "fetch"], ["notams", "import"], ["notams", "list"], ["notams", "show"], ["notams", "changes"],
        ["alerts"], ["alerts", "list"], ["alerts", "ack"], ["voice"], ["voice", "test"], ["voice", "list"],
        ["config"], ["config", "check"], ["config", "show"],
        ["flights"], ["flights", "list"], ["flights", "show"], ["flights", "export"], ["flights", "import"], ["flights", "delete"],
        ["notify"], ["notify", "test"], ["notify", "list"],
    ]

    @Test(arguments: commands)
    func helpFitsEightyColumns(_ command: [String]) throws {
        let executable = try #require(gatewaydExecutable())
        let help = try runCommand(executable, command + ["--help"])
        #expect(help.status == 0)
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count > 5)
        let name = (["gatewayd"] + command).joined(separator: " ")
        for (i, line) in lines.enumerated() {
            #expect(line.count <= 80, "\(name) --help, line \(i + 1) is \(line.count) columns: \(line)")
            // An example (an indented command line) ends its line: what follows is another
            // indented line, a blank one, or the end.
            let trimmed = line.drop { $0 == " " }
            if line.hasPrefix("  "), trimmed.hasPrefix("gatewayd ") || trimmed.hasPrefix("sudo ") || trimmed.hasPrefix("curl "), i + 1 < lines.count {
                let next = lines[i + 1]
                #expect(next.isEmpty || next.hasPrefix("  "), "\(name) --help breaks an example after line \(i + 1): \(line) / \(next)")
            }
            // Option help is a column of its own: nothing hangs at an 8-space margin beneath it.
            let indent = line.count - trimmed.count
            #expect(!(indent > 2 && indent < 10 && !trimmed.isEmpty && !trimmed.hasPrefix("-") && lines[..<i].contains { $0.hasPrefix("OPTIONS:") }),
                    "\(name) --help, line \(i + 1) sits at column \(indent) under an option: \(line)")
        }
    }
}
