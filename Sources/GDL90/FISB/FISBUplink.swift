/// A decoded UAT ground uplink (the 432-byte payload of GDL90 message 0x07): the station header
/// and its information frames. A frame that cannot be decoded is skipped and reported in
/// `errors`; the frames around it are kept.
public struct FISBUplink: Hashable, Sendable {
    /// Size of the uplink payload.
    public static let payloadLength = 432

    /// Ground station header.
    public var header: UATUplinkHeader
    /// Information frames, in uplink order.
    public var frames: [InformationFrame]
    /// Frames (or frame lengths) that were skipped, with why.
    public var errors: [FISBError]

    /// Creates an uplink.
    public init(header: UATUplinkHeader, frames: [InformationFrame], errors: [FISBError] = []) {
        self.header = header
        self.frames = frames
        self.errors = errors
    }

    /// Decodes an uplink payload. Frame lengths that run past the payload are capped to the
    /// bytes present (the frame is then decoded from what is there); a zero length ends the
    /// list. Frames are only read when the header says application data is valid. An empty
    /// uplink (first frame length 0) costs the header decode and nothing more.
    public init(payload: [UInt8]) throws(FISBError) {
        header = try UATUplinkHeader(payload)
        frames = []
        errors = []
        guard header.applicationDataValid else { return }
        var frames: [InformationFrame] = []
        var errors: [FISBError] = []
        Self.forEachFrame(in: payload) { type, data, capped in
            if let capped { errors.append(capped) }
            do throws(FISBError) {
                frames.append(try InformationFrame(type: type, data: Array(payload[data])))
            } catch {
                errors.append(Self.skipped(error, type: type, data: data))
            }
        }
        self.frames = frames
        self.errors = errors
    }

    /// Walks the information frames of a payload whose header says application data is valid,
    /// as `init(payload:)` reads them, without copying them: `body` gets each frame's type, the
    /// range of its data in `payload`, and the error to report when its length ran past the
    /// payload and was capped. A zero length ends the list.
    public static func forEachFrame(in payload: [UInt8], _ body: (_ type: Int, _ data: Range<Int>, _ capped: FISBError?) -> Void) {
        let count = payload.count
        var pos = UATUplinkHeader.length
        while pos + 2 <= count {
            let length = Int(payload[pos]) << 1 | Int(payload[pos + 1] >> 7)
            let type = Int(payload[pos + 1] & 0x0F)
            if length == 0 { break }
            let start = pos + 2
            var end = start + length
            var capped: FISBError?
            if end > count {
                capped = FISBError(.truncated, at: pos, "frame type \(type) declares \(length) bytes, \(count - start) present; capped")
                end = count
            }
            body(type, start..<end, capped)
            pos = end
        }
    }

    /// The error reported for a frame of `type` whose `data` could not be decoded (the frame skipped).
    public static func skipped(_ error: FISBError, type: Int, data: Range<Int>) -> FISBError {
        var e = error
        e.offset += data.lowerBound
        e.detail = "frame type \(type) at byte \(data.lowerBound - 2) skipped: " + e.detail
        return e
    }

    /// True when a payload carries no information frames (the cheap check for the roughly half
    /// of all uplinks that are empty).
    public static func isEmpty(_ payload: [UInt8]) -> Bool {
        payload.count < UATUplinkHeader.length + 2
            || payload[6] & 0x20 == 0
            || (payload[8] == 0 && payload[9] & 0x80 == 0)
    }

    /// The 432-byte payload: header, frames, zero padding (frames that do not fit are dropped).
    public func encode() -> [UInt8] {
        var out = header.encode()
        out.reserveCapacity(Self.payloadLength)
        for frame in frames {
            var f: [UInt8] = []
            frame.encode(into: &f)
            if out.count + f.count > Self.payloadLength { break }
            out += f
        }
        if out.count < Self.payloadLength { out += [UInt8](repeating: 0, count: Self.payloadLength - out.count) }
        return out
    }
}
