import Dispatch
import Synchronization
import Testing
@testable import GatewayDomain
@testable import GatewayRecords
@testable import GatewayFeeds
@testable import GatewayRuntime

/// One encoding of an alert per change, shared by every consumer: the encodings are the
/// formatter's bytes, the hub hands each subscriber the form it asked for, and the alert log
/// stores the JSON as it was sent.
@Suite(.timeLimit(.minutes(5))) struct EncodedAlertTests {
    static let events = [
        AlertEvent(change: .raised, kind: .traffic, id: "traffic-ab4549-1", subject: "ab4549", level: .warning, time: 1_778_940_181,
                   message: "Traffic N825V (ab4549) 12 o'clock, 1.2 NM, 200 ft above", traffic: nil),
        AlertEvent(change: .updated, kind: .airspace, id: "airspace-x", subject: "FDC 6/2174", level: .caution, time: 1_778_940_090.5,
                   message: "TFR \"quoted\" ahead"),
        AlertEvent(change: .cleared, kind: .traffic, id: "traffic-ab4549-1", subject: "ab4549", level: .advisory, time: 1_778_940_300,
                   message: "Traffic N825V (ab4549) clear"),
    ]

    @Test func encodingsAreTheFormattersBytes() {
        for e in Self.events {
            let a = EncodedAlert(e)
            #expect(a.json == AlertFormatter.json(e))
            #expect(a.text == AlertFormatter.human(e, colour: false))
            #expect(a.colouredText == AlertFormatter.human(e, colour: true))
            #expect(AlertFormatter(style: .json).format(a) == AlertFormatter(style: .json).format(e))
            #expect(AlertFormatter(style: .human(colour: true)).format(a) == AlertFormatter(style: .human(colour: true)).format(e))
            // What `tail` does with a text line from the stream: the same colours.
            #expect(AlertFormatter.colouredLine(text: a.text) == a.colouredText)
        }
        #expect(AlertFormatter.colouredLine(text: "not an alert line") == nil)
    }

    @Test func hubHandsEachSubscriberTheEncodedChanges() async throws {
        let hub = FeedHub()
        let first = try #require(hub.subscribe())
        let second = try #require(hub.subscribe())
        let encoded = Self.events.map { EncodedAlert($0) }
        hub.publish(encoded: encoded)
        hub.finishAll()
        var a: [FeedHub.Line] = [], b: [FeedHub.Line] = []
        for await line in first.stream { a.append(line) }
        for await line in second.stream { b.append(line) }
        #expect(a == encoded.map { .alert($0) })
        #expect(b == a)
        // The raised-then-cleared traffic alert is gone; the airspace one stays, as encoded.
        #expect(hub.activeEncoded == [encoded[1]])
        #expect(hub.historyEncoded == encoded)
    }

    /// The stable id is the last key, and without one the JSON is the engine's, byte for byte
    /// (the goldens pin it).
    @Test func eventIdIsTheLastKeyAndOnlyWhenGiven() throws {
        let e = Self.events[1]
        let plain = EncodedAlert(e)
        let stamped = EncodedAlert(e, eventId: "7-42")
        #expect(plain.json == AlertFormatter.json(e))
        #expect(stamped.json == String(plain.json.dropLast()) + ",\"eventId\":\"7-42\"}")
        #expect(stamped.text == plain.text)
        var ids = AlertEventIDs(boot: 7)
        #expect([ids.next(), ids.next()] == ["7-1", "7-2"])
        #expect(AlertEventIDs.parse("7-42")! == (7, 42))
        #expect(AlertEventIDs.parse("7-") == nil && AlertEventIDs.parse("x-1") == nil && AlertEventIDs.parse("0-1") == nil)
    }

    /// A subscriber resuming from an id the hub remembers gets exactly the later changes; one
    /// without an id gets the active alerts and the newest id as its mark; an unknown id with
    /// what the log had after it gets those, then the hub's later ones, none twice.
    @Test func subscribersResumeAfterTheirLastEventId() throws {
        let hub = FeedHub()
        var ids = AlertEventIDs(boot: 3)
        let encoded = Self.events.map { EncodedAlert($0, eventId: ids.next()) }
        hub.publish(encoded: encoded)
        let resumed = try #require(hub.subscribe(after: encoded[0].eventId))
        #expect(resumed.resumed && resumed.backlog == Array(encoded[1...]))
        let fresh = try #require(hub.subscribe())
        #expect(!fresh.resumed && fresh.backlog == [encoded[1]] && fresh.mark == encoded.last?.eventId)
        let older = EncodedAlert(Self.events[0], eventId: "2-9")
        let fromLog = try #require(hub.subscribe(after: "2-8", earlier: [older, encoded[0]]))
        #expect(fromLog.resumed && fromLog.backlog == [older] + encoded)
        let unknown = try #require(hub.subscribe(after: "1-1"))
        #expect(!unknown.resumed && unknown.backlog == [encoded[1]])
    }

    @Test func recordKeepsTheJSONAsSent() {
        let a = EncodedAlert(Self.events[1])
        let record = AlertRecord(a)
        #expect(record.json == a.json)
        #expect(record.message == Self.events[1].message)
        #expect(record.level == "caution")
    }
}

/// The terminal and the alert log are bounded consumers off the core's queue: a stalled one
/// costs counted drops, never a stalled core.
@Suite(.timeLimit(.minutes(5))) struct BoundedConsumerTests {
    @Test func aStalledConsumerDropsAndCounts() {
        let gate = DispatchSemaphore(value: 0)
        let seen = Mutex<[Int]>([])
        let consumer = BoundedConsumer<Int>(label: "test.consumer", limit: 3) { item in
            if item == 0 { gate.wait() }
            seen.withLock { $0.append(item) }
        }
        for i in 0..<10 { consumer.submit(i) }
        #expect(consumer.dropped == 7, "item 0 stalls: 1, 2 wait behind it, 3-9 are dropped")
        gate.signal()
        consumer.drain()
        #expect(seen.withLock { $0 } == [0, 1, 2])
        #expect(consumer.submit(10))
        consumer.drain()
        #expect(seen.withLock { $0 } == [0, 1, 2, 10])
    }
}
