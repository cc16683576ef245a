import Testing
@testable import GatewaySupport
@testable import GatewayCaptures

/// Issue 40, item 18: a product header of "31 February" dated a raw stream 3 March 2026; NOTAM
/// date groups (ends of validity such as 2099) dated a stream after its file was written.
@Suite(.timeLimit(.minutes(5))) struct ProductDateSanityTests {
    let written = Timestamp.parse("2026-05-17T08:00:00Z")!

    @Test func impossibleDaysAreNoEvidence() {
        #expect(ProductDateEvidence.receptionDay(month: 2, day: 31, hour: 10, minute: 0, secondsOfDay: 50_000) == nil)
        #expect(ProductDateEvidence.receptionDay(month: 4, day: 31, hour: 10, minute: 0, secondsOfDay: 50_000) == nil)
        #expect(ProductDateEvidence.receptionDay(month: 2, day: 29, hour: 10, minute: 0, secondsOfDay: 50_000).map { [$0.month, $0.day] } == [2, 29])
        #expect(ProductDateEvidence.receptionDay(month: 5, day: 16, hour: 13, minute: 50, secondsOfDay: 50_400).map { [$0.month, $0.day] } == [5, 16])
    }

    @Test func twentyNinthOfFebruaryOnlyInALeapYear() {
        // Headers say 29 February and the file was written in March 2027: 2026–2028 have no such
        // day before the file but 2028's, which is after it: no date from the products (never 1 March).
        let evidence = ProductDateEvidence(monthDays: [229: 30])
        #expect(evidence.midnight(fallback: Timestamp.parse("2027-03-05T00:00:00Z")!) == nil)
        // Written in 2028: 29 February 2028.
        #expect(evidence.midnight(fallback: Timestamp.parse("2028-03-05T00:00:00Z")!).map { Timestamp.iso8601($0.midnight) } == "2028-02-29T00:00:00Z")
    }

    @Test func notamGroupsAfterTheFileWasWrittenDoNotDateIt() {
        // Most groups are permanent ends (2099) and far-off ends; a few are the day's starts.
        var dates = Array(repeating: Timestamp.parse("2099-12-31T23:59:00Z")!, count: 9)
        dates += Array(repeating: Timestamp.parse("2026-05-16T13:00:00Z")!, count: 3)
        let evidence = ProductDateEvidence(monthDays: [516: 25], notamDates: dates)
        let day = evidence.midnight(fallback: written)
        #expect(day.map { Timestamp.iso8601($0.midnight) } == "2026-05-16T00:00:00Z", "\(String(describing: day))")
        // Only far-off groups: the file's time decides the year.
        let late = ProductDateEvidence(monthDays: [516: 25], notamDates: Array(repeating: Timestamp.parse("2099-12-31T23:59:00Z")!, count: 5))
        #expect(late.midnight(fallback: written).map { Timestamp.iso8601($0.midnight) } == "2026-05-16T00:00:00Z")
    }
}
