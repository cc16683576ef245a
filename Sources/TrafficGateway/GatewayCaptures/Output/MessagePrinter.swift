import GatewaySupport
import GatewayDomain
/// The lines `gatewayd decode` prints, one a message or rejected frame, readable or JSON Lines,
/// written into one reusable buffer that the caller empties to stdout every few hundred kilobytes.
///
/// Handed to the pipeline's `observe` as a closure literal that calls `append` on a local
/// `var` printer: a non-escaping closure, so the buffer and the clock are reached directly (a
/// stored closure would box them and check every access at run time).
package struct MessagePrinter: Sendable {
    /// The lines written and not yet taken.
    package var out: OutputBuffer
    /// JSON Lines (true) or readable lines.
    package let json: Bool
    private var clock = ISO8601Writer()
    /// Where the capture's traffic and ownship reports came from when not GDL 90 (JSON's `"from"`).
    private let from: StaticString?

    /// A printer with an empty buffer of `capacity` bytes, for a capture of `format` (whose
    /// reports are marked with where they came from: `"sbs"` for SBS text and a Stratux 1090ES
    /// log, `"nmea"` for a Stratux GPS log).
    package init(json: Bool, capacity: Int = 1 << 19, format: CaptureFormat = .pcap) {
        self.json = json
        out = OutputBuffer(capacity: capacity)
        from = switch format {
        case .sbs: "sbs"
        case .stratuxGPS: "nmea"
        default: nil
        }
    }

    /// Appends the line for `item`, seen at `time`. The item is consumed: its parts are taken
    /// out as they are (a borrowed one is copied whole to be taken apart).
    @inline(__always)
    package mutating func append(_ item: consuming PipelineItem, at t: Double) {
        let time: Double? = t
        switch consume item {
        case .message(let m, let offset):
            if json {
                MessageFormatter.appendJSON(m, time: time, offset: offset, to: &out, clock: &clock, from: from)
            } else {
                MessageFormatter.appendText(m, time: time, to: &out, clock: &clock)
            }
        case .invalid(let e, let offset):
            out.append(json ? MessageFormatter.json(e, offset: offset, time: time) : "\(Timestamp.iso8601(t))  error      \(e) at byte \(offset)")
        case .rejected(let e):
            if json {
                MessageFormatter.appendJSON(e, time: time, to: &out, clock: &clock)
            } else {
                MessageFormatter.appendText(e, time: t, to: &out, clock: &clock)
            }
        }
        out.append(byte: 0x0A)
    }
}
