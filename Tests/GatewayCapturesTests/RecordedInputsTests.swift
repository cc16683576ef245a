import GDL90
import Testing
@testable import GatewaySupport
@testable import GatewayDomain
@testable import GatewayCaptures

/// Issue 39, one replay driver order: the fixes and events a recording kept come back by time, a
/// fix first at a tie, for `replay` and `run --replay` alike (`run --replay` handed every due fix
/// before every due event, whatever their times).
@Suite(.timeLimit(.minutes(5))) struct RecordedInputsTests {
    let fix = GPSFix(position: Position(latitude: 45, longitude: -123), altitudeFt: 1_000, groundSpeedKt: 90, trackDeg: 0, verticalSpeedFpm: 0)

    @Test func byTimeAFixFirstAtATie() {
        let fixes = [TimedGPSFix(time: 1.5, fix: fix), TimedGPSFix(time: 3, fix: fix), TimedGPSFix(time: 0.5, fix: fix)]
        let events = [RecordedEvent(time: 3, change: .acknowledge("b")), RecordedEvent(time: 1, change: .acknowledge("a")),
                      RecordedEvent(time: 3, change: .acknowledge("c"))]
        var inputs = RecordedInputs(fixes: fixes, events: events)
        var order: [String] = []
        func take(through t: Double) {
            while let (time, input) = inputs.next(through: t) {
                switch input {
                case .gpsFix: order.append("fix@\(time)")
                case .acknowledge(let id): order.append("\(id)@\(time)")
                default: order.append("?")
                }
            }
        }
        take(through: 2)  // the datagram at 2 s: what is due before it
        #expect(order == ["fix@0.5", "a@1.0", "fix@1.5"])
        take(through: .infinity)
        #expect(order == ["fix@0.5", "a@1.0", "fix@1.5", "fix@3.0", "b@3.0", "c@3.0"])
    }
}
