import Testing
@testable import GatewayDomain
@testable import GatewayVoice

/// A traffic alert change for the scheduler.
func trafficChange(_ change: AlertEvent.Change = .raised, id: String = "t1", level: AlertLevel, at time: Double,
                   range: Double = 1.2, clock: Int? = 2, altitude: Int? = 500, cpa: Double? = 35) -> AlertEvent {
    AlertEvent(change: change, kind: .traffic, id: id, subject: id, level: level, time: time, message: "",
               traffic: TrafficAlertNumbers(rangeNM: range, bearingDeg: 0, relativeAltitudeFt: altitude, timeToCPASec: cpa, clock: clock))
}

let flying = FlightStatus(phase: .airborne, lastMessage: nil)

/// The words of a callout (issue 22, PROTOCOL.md "Callouts") and the scheduler's pacing and
/// priority, without audio.
@Suite(.timeLimit(.minutes(5))) struct VoiceCalloutTests {
    @Test func trafficWording() {
        func say(_ level: AlertLevel, range: Double, clock: Int?, altitude: Int?, cpa: Double? = 40) -> String {
            CalloutWording.callout(for: trafficChange(level: level, at: 0, range: range, clock: clock, altitude: altitude, cpa: cpa))!.text
        }
        #expect(say(.caution, range: 1.2, clock: 2, altitude: 500) == "Traffic! Two o'clock, high, one mile.")
        #expect(say(.caution, range: 0.4, clock: 12, altitude: -300) == "Traffic! Twelve o'clock, low, less than one mile.")
        #expect(say(.caution, range: 3.6, clock: 9, altitude: 200) == "Traffic! Nine o'clock, same altitude, four miles.")
        #expect(say(.caution, range: 12, clock: 1, altitude: nil) == "Traffic! One o'clock, altitude not available, more than ten miles.")
        #expect(say(.caution, range: 2, clock: nil, altitude: -200) == "Traffic! No bearing, same altitude, two miles.")
        #expect(say(.warning, range: 0.6, clock: 11, altitude: 0, cpa: 25) == "Traffic, traffic! Eleven o'clock, same altitude, less than one mile, closing.")
        #expect(say(.warning, range: 0.6, clock: 11, altitude: 0, cpa: 31) == "Traffic, traffic! Eleven o'clock, same altitude, less than one mile.")
        #expect(say(.warning, range: 0.2, clock: 6, altitude: 0, cpa: nil) == "Traffic, traffic! Six o'clock, same altitude, less than one mile.")
    }

    @Test func airspaceAndSystemWording() {
        func say(_ n: AirspaceAlertNumbers, subject: String = "FDC 6/2174") -> Callout {
            CalloutWording.airspace(n, level: .caution, subject: subject, alert: "a")
        }
        #expect(say(AirspaceAlertNumbers(distanceNM: 2, timeToEntrySec: 100, name: "FDC 6/2174", kind: .tfr)).text == "TFR ahead, less than two minutes.")
        #expect(say(AirspaceAlertNumbers(distanceNM: 1, timeToEntrySec: 45, name: "R-4499A", kind: .restricted)).text
                == "Restricted area R-4499A ahead, less than one minute.")
        #expect(say(AirspaceAlertNumbers(distanceNM: 1, timeToEntrySec: 45, name: "R-4499A", kind: .restricted)).phrases
                == ["Restricted area", "R", "4", "4", "9", "9", "A", "ahead,", "less than one minute."])
        #expect(say(AirspaceAlertNumbers(distanceNM: 0, name: "R-4499A", kind: .restricted)).text == "Inside restricted area R-4499A.")
        #expect(say(AirspaceAlertNumbers(distanceNM: 0, name: "DEMO MOA", kind: .moa)).text == "Inside MOA.")
        #expect(say(AirspaceAlertNumbers(distanceNM: 2, name: "P-56", kind: nil)).text == "Prohibited area P-56 near.")
        #expect(say(AirspaceAlertNumbers(distanceNM: 0, name: "Some area", kind: nil), subject: "x").text == "Inside airspace.")
        #expect(CalloutWording.system(trafficAvailable: false).text == "Traffic not available.")
        #expect(CalloutWording.system(trafficAvailable: true).text == "Traffic available.")
    }

    /// Every phrase any callout uses is in the vocabulary rendered at start.
    @Test func everyPhraseIsInTheVocabulary() {
        let keys = Set(CalloutWording.vocabulary.map(\.key)).union(CalloutWording.pauses.keys)
        var callouts: [Callout] = [CalloutWording.system(trafficAvailable: true), CalloutWording.system(trafficAvailable: false)]
        for level in [AlertLevel.caution, .warning] {
            for clock in [nil] + (1...12).map(Optional.some) {
                for alt in [nil, 0, 900, -900] {
                    for range in stride(from: 0.0, through: 13, by: 0.25) {
                        callouts.append(CalloutWording.callout(for: trafficChange(level: level, at: 0, range: range, clock: clock, altitude: alt, cpa: 10))!)
                    }
                }
            }
        }
        for kind in [nil] + AirspaceKind.allCases.map(Optional.some) {
            for n in [AirspaceAlertNumbers(distanceNM: 0, name: "W-237Z", kind: kind), AirspaceAlertNumbers(distanceNM: 1, timeToEntrySec: 30, name: "QX12345", kind: kind),
                      AirspaceAlertNumbers(distanceNM: 2, name: "Nowhere", kind: kind)] {
                callouts.append(CalloutWording.airspace(n, level: .warning, subject: "s", alert: "a"))
            }
        }
        for c in callouts { #expect(Set(c.phrases).isSubset(of: keys), "\(c.text): \(Set(c.phrases).subtracting(keys))") }
    }

    /// A warning pre-empts a queued caution and never waits behind it; the one speaking is not cut.
    @Test func warningPreemptsQueuedCaution() {
        var s = CalloutScheduler()
        var said = s.receive([trafficChange(id: "a", level: .caution, at: 100)], flight: flying, at: 100)
        said += s.receive([trafficChange(id: "b", level: .caution, at: 100.5)], flight: flying, at: 100.5)
        said += s.receive([trafficChange(id: "c", level: .warning, at: 101)], flight: flying, at: 101)
        said += s.advance(to: 120)
        #expect(said.map(\.callout.alert) == ["a", "c", "b", "c"])  // c again: its 15 s repeat
        let durations = CalloutDurations.estimated
        for (x, y) in zip(said, said.dropFirst()) {
            #expect(y.time >= x.time + durations.seconds(x.callout.phrases) + 0.5, "\(y.callout.text) overlaps \(x.callout.text)")
        }
    }

    /// A queued callout is said from its alert's latest numbers, or not at all once it cleared or
    /// fell below the spoken levels.
    @Test func queuedCalloutIsRephrasedOrDropped() {
        var s = CalloutScheduler()
        var said = s.receive([trafficChange(id: "a", level: .caution, at: 100),
                              trafficChange(id: "b", level: .caution, at: 100, range: 3.2, clock: 10)], flight: flying, at: 100)
        said += s.receive([trafficChange(.updated, id: "b", level: .caution, at: 101, range: 2.1, clock: 11)], flight: flying, at: 101)
        said += s.advance(to: 110)
        #expect(said.map(\.callout.text) == ["Traffic! Two o'clock, high, one mile.", "Traffic! Eleven o'clock, high, two miles."])
        var t = CalloutScheduler()
        var gone = t.receive([trafficChange(id: "a", level: .caution, at: 100), trafficChange(id: "b", level: .caution, at: 100),
                              trafficChange(id: "c", level: .caution, at: 100)], flight: flying, at: 100)
        gone += t.receive([trafficChange(.cleared, id: "b", level: .caution, at: 101),
                           trafficChange(.updated, id: "c", level: .advisory, at: 101)], flight: flying, at: 101)
        gone += t.advance(to: 130)
        #expect(gone.map(\.callout.alert) == ["a"])
    }

    /// Spoken again only on escalation, or every `repeatWarningSec` while a warning.
    @Test func escalationAndWarningRepeats() {
        var s = CalloutScheduler()
        var said = s.receive([trafficChange(id: "a", level: .advisory, at: 100)], flight: flying, at: 100)
        #expect(said.isEmpty)  // advisories are silent by default
        said += s.receive([trafficChange(.updated, id: "a", level: .caution, at: 105)], flight: flying, at: 105)
        said += s.receive([trafficChange(.updated, id: "a", level: .caution, at: 115, range: 0.9)], flight: flying, at: 115)
        said += s.receive([trafficChange(.updated, id: "a", level: .warning, at: 120, cpa: 20)], flight: flying, at: 120)
        said += s.advance(to: 150)
        said += s.receive([trafficChange(.updated, id: "a", level: .caution, at: 151)], flight: flying, at: 151)
        said += s.advance(to: 200)
        #expect(said.map(\.time) == [105, 120, 135, 150])
        #expect(said.map(\.callout.level) == [.caution, .warning, .warning, .warning])
        var loud = CalloutScheduler(settings: { var v = CalloutScheduler.Settings(); v.advisories = true; v.repeatWarningSec = 0; return v }())
        #expect(loud.receive([trafficChange(id: "a", level: .advisory, at: 100)], flight: flying, at: 100).count == 1)
        #expect(loud.receive([trafficChange(.updated, id: "a", level: .warning, at: 101)], flight: flying, at: 101).isEmpty)
        #expect(loud.advance(to: 160).count == 1)  // the escalation, once: no repeats at 0
    }

    /// Issue 44: "Inside TFR." was said six times on the demo flight, the traffic warning's 15 s
    /// repeat applied to airspace. An airspace alert is said at prediction and at entry, again on
    /// escalation or re-entry; a reminder only when configured. Traffic warnings still repeat.
    @Test func airspaceCalloutsAreSaidOnce() {
        func area(_ change: AlertEvent.Change = .raised, level: AlertLevel, distance: Double, entry: Double?, at time: Double) -> AlertEvent {
            AlertEvent(change: change, kind: .airspace, id: "tfr", subject: "FDC 6/6101", level: level, time: time, message: "",
                       airspace: AirspaceAlertNumbers(distanceNM: distance, timeToEntrySec: entry, name: "FDC 6/6101", kind: .tfr))
        }
        func fly(_ s: inout CalloutScheduler) -> [TimedCallout] {
            var said = s.receive([area(level: .caution, distance: 2, entry: 100, at: 100)], flight: flying, at: 100)
            said += s.receive([area(.updated, level: .caution, distance: 1, entry: 50, at: 150)], flight: flying, at: 150)
            said += s.receive([area(.updated, level: .warning, distance: 0, entry: 0, at: 200)], flight: flying, at: 200)
            said += s.advance(to: 400)  // three minutes inside
            said += s.receive([area(.cleared, level: .warning, distance: 0.5, entry: nil, at: 400)], flight: flying, at: 400)
            said += s.receive([area(level: .warning, distance: 0, entry: 0, at: 430)], flight: flying, at: 430)  // back in
            said += s.advance(to: 500)
            return said
        }
        var quiet = CalloutScheduler()
        let said = fly(&quiet)
        #expect(said.map(\.time) == [100, 200, 430])
        #expect(said.map(\.callout.text) == ["TFR ahead, less than two minutes.", "Inside TFR.", "Inside TFR."])
        // A reminder when asked for, while the warning lasts.
        var reminded = CalloutScheduler(settings: { var v = CalloutScheduler.Settings(); v.airspaceReminderSec = 90; return v }())
        #expect(fly(&reminded).map(\.time) == [100, 200, 290, 380, 430])
        // Beside a staying airspace warning, a traffic warning repeats as it did.
        var both = CalloutScheduler()
        var heard = both.receive([area(level: .warning, distance: 0, entry: 0, at: 100)], flight: flying, at: 100)
        heard += both.receive([trafficChange(id: "t", level: .warning, at: 110, cpa: 20)], flight: flying, at: 110)
        heard += both.advance(to: 141)
        #expect(heard.map(\.callout.kind) == [.airspace, .traffic, .traffic, .traffic])
    }

    /// Nothing on the ground: not queued, and what was queued is dropped on landing.
    @Test func silentOnTheGround() {
        var s = CalloutScheduler()
        let ground = FlightStatus(phase: .ground, lastMessage: 100)
        #expect(s.receive([trafficChange(id: "a", level: .warning, at: 100)], flight: ground, at: 100).isEmpty)
        #expect(s.advance(to: 200).isEmpty)
        var t = CalloutScheduler()
        let said = t.receive([trafficChange(id: "a", level: .caution, at: 100), trafficChange(id: "b", level: .caution, at: 100)], flight: flying, at: 100)
        #expect(said.count == 1)
        #expect(t.receive([], flight: FlightStatus(phase: .ground, lastMessage: 101), at: 101).isEmpty)
        #expect(t.advance(to: 200).isEmpty)
    }

    /// GDL 90 gone 10 s in flight: "Traffic not available." once; back: "Traffic available." once.
    @Test func trafficLostAndBack() {
        var s = CalloutScheduler()
        var said = s.receive([], flight: FlightStatus(phase: .airborne, lastMessage: 100), at: 100)
        said += s.advance(to: 109.9)
        #expect(said.isEmpty)
        said += s.advance(to: 140)
        said += s.receive([], flight: FlightStatus(phase: .airborne, lastMessage: 141), at: 141)
        said += s.advance(to: 145)
        #expect(said.map(\.time) == [110, 141])
        #expect(said.map(\.callout.text) == ["Traffic not available.", "Traffic available."])
        #expect(said.map(\.callout.kind) == [.system, .system])
        // In a replay the gap is seen only when the next datagram arrives: the times are still right.
        var r = CalloutScheduler()
        _ = r.receive([], flight: FlightStatus(phase: .airborne, lastMessage: 100), at: 100)
        let replayed = r.receive([], flight: FlightStatus(phase: .airborne, lastMessage: 125), at: 125)
        #expect(replayed.map(\.time) == [110, 125])
        // On the ground a receiver switched off says nothing.
        var g = CalloutScheduler()
        _ = g.receive([], flight: FlightStatus(phase: .ground, lastMessage: 100), at: 100)
        #expect(g.advance(to: 300).isEmpty)
    }

    @Test func timelineLineAndJSON() {
        let c = TimedCallout(time: 1_778_940_160.02, callout: CalloutWording.callout(for: trafficChange(id: "traffic-ab4549-1", level: .caution, at: 0))!)
        #expect(c.line == "14:02:40  Traffic! Two o'clock, high, one mile.")
        #expect(c.json == #"{"time":"2026-05-16T14:02:40.020Z","text":"Traffic! Two o'clock, high, one mile.","alert":"traffic-ab4549-1","kind":"traffic","level":"caution"}"#)
    }
}
