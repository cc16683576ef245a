import GatewaySupport
import GatewayDomain
import GDL90

/// What the FIS-B products inside a raw GDL 90 stream say about the day it was received (issue
/// 28): a raw stream's heartbeats carry only the time of day, and a file's modification time is
/// the day it was last copied, not recorded. Products carry dates: APDU headers the month and
/// day of issue (time options 2 and 3), METAR, TAF and PIREP texts the day of the month, NOTAM
/// texts full `YYMMDDHHMM` groups. Collected from uplinks with the heartbeat time they came at.
package struct ProductDateEvidence: Sendable {
    /// Votes for the reception day as month × 100 + day, from APDU headers.
    package private(set) var monthDays: [Int: Int] = [:]
    /// Votes for the reception day of the month, from weather report times.
    package private(set) var daysOfMonth: [Int: Int] = [:]
    /// Times of NOTAM `YYMMDDHHMM` groups (at most `maximumNotamDates`): they give the year and
    /// month the others lack.
    package private(set) var notamDates: [Double] = []
    /// Uplinks read.
    package private(set) var uplinks = 0
    /// Segmented products (most TFR texts) are read once whole.
    private var reassembler = APDUReassembler(capacity: 16)
    static let maximumNotamDates = 512

    /// Creates an empty collection.
    package init() {}

    /// Evidence already gathered (tests of the rules that weigh it).
    init(monthDays: [Int: Int], daysOfMonth: [Int: Int] = [:], notamDates: [Double] = []) {
        self.monthDays = monthDays
        self.daysOfMonth = daysOfMonth
        self.notamDates = notamDates
    }

    /// True once enough was seen to decide (the probe of a file stops there).
    package var isSufficient: Bool {
        monthDays.values.reduce(0, +) >= 20 && !notamDates.isEmpty
    }

    /// Adds what one uplink payload says, received `secondsOfDay` after 0000Z (the last heartbeat).
    package mutating func add(payload: [UInt8], secondsOfDay: Double) {
        guard !FISBUplink.isEmpty(payload), let uplink = try? FISBUplink(payload: payload) else { return }
        uplinks += 1
        for frame in uplink.frames {
            guard case .apdu(let apdu) = frame else { continue }
            if let month = apdu.time.month, let day = apdu.time.day,
               let received = Self.receptionDay(month: month, day: day, hour: apdu.time.hour, minute: apdu.time.minute, secondsOfDay: secondsOfDay) {
                monthDays[received.month * 100 + received.day, default: 0] += 1
            }
            guard let whole = (try? reassembler.add(apdu)) ?? nil, let content = try? FISBProductContent(whole) else { continue }
            switch content {
            case .genericText(let product):
                for record in product.records {
                    guard let t = record.reportTime,
                          let received = Self.receptionDay(month: 1, day: t.day, hour: t.hour, minute: t.minute, secondsOfDay: secondsOfDay)
                    else { continue }
                    daysOfMonth[received.day, default: 0] += 1
                }
            case .twgo(let product):
                if case .text(let records) = product.records {
                    for record in records { collectNotamDates(record.text) }
                }
            case .gridded:
                break
            }
        }
    }

    /// The month and day a product issued at `month`/`day` `hour`:`minute` was received at
    /// `secondsOfDay`: the same day, or the next when it was issued later in the day than it
    /// arrived (issued before midnight, received after). Nil for impossible fields.
    static func receptionDay(month: Int, day: Int, hour: Int, minute: Int, secondsOfDay: Double) -> (month: Int, day: Int)? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              exists(month: month, day: day) else { return nil }
        let issued = Double(hour * 3600 + minute * 60)
        // Products are issued before they are sent; ten minutes' slack for clocks.
        guard issued > secondsOfDay + 600 else { return (month, day) }
        // The next day, in a leap year so that 29 February stays possible.
        let days = Timestamp.days(fromCivil: 2000, Int64(month), Int64(day)) + 1
        let (_, m, d) = Timestamp.civil(fromDays: days)
        return (Int(m), Int(d))
    }

    /// Whether some year has this month and day (29 February does; 31 February, 31 April do not:
    /// a header that says so is damaged, not a date).
    static func exists(month: Int, day: Int) -> Bool {
        let (_, m, d) = Timestamp.civil(fromDays: Timestamp.days(fromCivil: 2000, Int64(month), Int64(day)))
        return m == month && d == day
    }

    private mutating func collectNotamDates(_ text: String) {
        var run: [UInt8] = []
        func flush() {
            if run.count == 10, notamDates.count < Self.maximumNotamDates, let t = FISBClock.notamTime(run[...]) { notamDates.append(t) }
            run.removeAll(keepingCapacity: true)
        }
        for c in text.utf8 {
            if c >= 0x30 && c <= 0x39 { run.append(c) } else { flush() }
        }
        flush()
    }

    /// The reception day these products point to: the month and day most APDU headers give (else
    /// the day of the month most weather reports give), in the year and month nearest the NOTAM
    /// texts' dates, else the latest not after `fallback` (the file's time: a file is written
    /// after it is recorded). Nil when no product carries a day.
    package func midnight(fallback: Double) -> (midnight: Double, source: String)? {
        // NOTAM groups after the file was written (a day's slack for its clock) are ends of
        // validity far ahead (2099 for "permanent"), not the time of reception.
        let dates = notamDates.filter { $0 <= fallback + 86_400 }.sorted()
        let anchor = dates.isEmpty ? fallback : dates[dates.count / 2]
        let near = dates.isEmpty ? "the file's time" : "\(dates.count) NOTAM date groups"
        let (year, month, _) = FISBClock.date(anchor)
        if let best = monthDays.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }) {
            let m = best.key / 100, d = best.key % 100
            // Only days that year has (29 February), never after the file was written.
            var candidates = ((year - 1)...(year + 1)).map { Timestamp.midnight(year: $0, month: m, day: d) }.filter { FISBClock.date($0).day == d }
            candidates = candidates.filter { $0 <= fallback + 86_400 }
            if dates.isEmpty { candidates = candidates.filter { $0 <= anchor } }
            guard let midnight = candidates.min(by: { abs($0 - anchor) < abs($1 - anchor) }) else { return nil }
            return (midnight, "the FIS-B products' dates (month and day from \(best.value) product headers, year from \(near))")
        }
        if let best = daysOfMonth.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }) {
            var candidates: [Double] = []
            for dm in -1...1 {
                var y = year, m = month + dm
                if m < 1 { m = 12; y -= 1 } else if m > 12 { m = 1; y += 1 }
                // A day the month does not have (31 April) is no candidate.
                let t = Timestamp.midnight(year: y, month: m, day: best.key)
                if FISBClock.date(t).day == best.key { candidates.append(t) }
            }
            // A file is written after it was recorded: with only its time to go by, not later than that.
            candidates = candidates.filter { $0 <= fallback + 86_400 }
            if dates.isEmpty { candidates = candidates.filter { $0 <= anchor } }
            guard let midnight = candidates.min(by: { abs($0 - anchor) < abs($1 - anchor) }) else { return nil }
            return (midnight, "the FIS-B weather reports' day of the month (\(best.value) reports; month and year from \(near))")
        }
        return nil
    }
}

extension CaptureDate {
    /// Reads the start of a raw GDL 90 stream (at most `limit` of its heartbeat-led datagrams,
    /// and only its first day): the first heartbeat's time of day and what the FIS-B products
    /// say of the date.
    package static func probe(_ stream: inout CaptureStream, limit: Int = 20_000) -> (firstHeartbeat: Double?, evidence: ProductDateEvidence) {
        var first: Double?
        var secondsOfDay: Double?
        var evidence = ProductDateEvidence()
        var deframer = Deframer()
        var dayEnded = false
        for _ in 0..<limit {
            guard !dayEnded, !evidence.isSufficient, let datagram = stream.next() else { break }
            datagram.bytes.withUnsafeBytes { bytes in deframer.feed(bytes) { event in
                // Only heartbeats and uplinks say anything of the date: the rest are not decoded.
                guard !dayEnded, case .frame(let frame) = event, frame.messageID == Heartbeat.id || frame.messageID == Uplink.id,
                      let message = try? Message.decode(frame.message) else { return }
                switch message {
                case .heartbeat(let hb):
                    let s = Double(hb.secondsSinceMidnight)
                    // Past midnight the products speak of the next day: enough was seen.
                    if let last = secondsOfDay, s + 43_200 < last { dayEnded = true; return }
                    if first == nil { first = s }
                    secondsOfDay = s
                case .uplink(let uplink):
                    if let s = secondsOfDay { evidence.add(payload: uplink.payload, secondsOfDay: s) }
                default:
                    break
                }
            } }
        }
        return (first, evidence)
    }

    /// The date of the raw stream at `path`: `given` (`YYYY-MM-DD`) when set, else what its start
    /// says (`probe`: the products' dates, the first heartbeat), else the file's day. Nil only
    /// when `given` is malformed; an error when the file cannot be opened.
    package static func ofRawStream(at path: String, given: String? = nil) throws(CaptureError) -> CaptureDate? {
        if given != nil { return resolve(given: given, path: path, firstHeartbeatSeconds: nil) }
        var stream = try CaptureStream(path: path, port: 4000)
        let (first, products) = probe(&stream)
        return resolve(given: nil, path: path, firstHeartbeatSeconds: first, products: products)
    }
}

extension CaptureDate {
    /// The time to give the lines of the dump978 file at `path` when they carry none (dump978's
    /// plain output and its example files have no `t=`), and the note that says so; nil when its
    /// first line has a time. Never the epoch: the day is `given` (`YYYY-MM-DD`), else the one its
    /// FIS-B products point to (`ProductDateEvidence`), else the file's modification day; the
    /// time of day a minute after the latest issue time of its products' headers (they were
    /// received after they were issued), else the file's modification time (a recording ends
    /// when it is last written), else noon. Every line gets that one time: the file says no more.
    package static func ofUndatedDump978(at path: String, given: String?) throws(CaptureError) -> (time: Double, note: String)? {
        var stream = try CaptureStream(path: path, port: 4000, readsChannels: false, dating: false)
        guard stream.format == .dump978, let first = stream.next() else { return nil }
        guard first.timestamp == nil else { return nil }
        var evidence = ProductDateEvidence()
        var latestIssue: Int?
        var datagram: CapturedDatagram? = first
        var read = 0
        while let d = datagram, read < 20_000, !evidence.isSufficient || latestIssue == nil {
            read += 1
            // A dump978 line is one frame: the uplink's payload after its ID and time of reception.
            var deframer = Deframer()
            d.bytes.withUnsafeBytes { bytes in deframer.feed(bytes) { event in
                guard case .frame(let frame) = event, frame.messageID == Uplink.id, case .uplink(let uplink)? = try? Message.decode(frame.message) else { return }
                evidence.add(payload: uplink.payload, secondsOfDay: 86_399)
                guard !FISBUplink.isEmpty(uplink.payload), let fisb = try? FISBUplink(payload: uplink.payload) else { return }
                for case .apdu(let apdu) in fisb.frames {
                    let t = apdu.time.hour * 3600 + apdu.time.minute * 60
                    if (0..<86_400).contains(t) { latestIssue = max(latestIssue ?? 0, t) }
                }
            } }
            datagram = stream.next()
        }
        let modified = modificationTime(of: path)
        guard let date = resolve(given: given, path: path, firstHeartbeatSeconds: nil, products: evidence) else { return nil }
        let time: Double
        let how: String
        if let latestIssue {
            time = date.midnight + Double(min(latestIssue + 60, 86_399))
            how = "a minute after the latest issue time in its FIS-B product headers"
        } else if date.source == "the file's modification time", let modified {
            time = modified
            how = "the file's modification time"
        } else {
            time = date.midnight + 43_200
            how = "noon"
        }
        let day = date.assumed ? "\(date.day) from \(date.source)" : "\(date.day) from --date"
        let note = "\(path): dump978 lines without times (no t=); all dated \(Timestamp.iso8601(time)): day \(day), time of day \(how)"
            + (date.assumed ? " (give --date to set the day)" : "")
        return (time, note)
    }
}
