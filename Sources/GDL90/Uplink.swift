/// Uplink Data, message 0x07 (ICD §3.3): one 978 MHz ground uplink (FIS-B, TIS-B status).
public struct Uplink: Hashable, Sendable {
    /// Message ID.
    public static let id: UInt8 = 0x07
    /// Length with the ID byte: ID + 3-byte time of reception + 432-byte UAT payload.
    public static let length = 436
    /// Size of the UAT uplink payload.
    public static let payloadLength = 432

    /// Time of reception in 80 ns units since the last GPS second, or nil when the sender marks
    /// it invalid (0xFFFFFF). Stratux always sends 0.
    public var timeOfReception: UInt32?
    /// The 432-byte UAT uplink payload: 8-byte UAT header and information frames.
    public var payload: [UInt8]

    /// Creates an uplink message; `payload` is padded with zeros or cut to 432 bytes.
    public init(timeOfReception: UInt32?, payload: [UInt8]) {
        self.timeOfReception = timeOfReception
        var p = Array(payload.prefix(Self.payloadLength))
        if p.count < Self.payloadLength { p += [UInt8](repeating: 0, count: Self.payloadLength - p.count) }
        self.payload = p
    }

    init(_ m: MessageBytes) throws(MessageError) {
        try MessageError.check(m, Self.length)
        let tor = UInt32(m[1]) | UInt32(m[2]) << 8 | UInt32(m[3]) << 16
        self.timeOfReception = tor == 0xFF_FFFF ? nil : tor
        self.payload = Array(m.slice(4, Self.payloadLength))
    }

    func encode(into out: inout [UInt8]) {
        out.append(Self.id)
        encodeTimeOfReception(timeOfReception, into: &out)
        out.append(contentsOf: payload)
    }
}

/// Time of reception, 3 bytes least significant first; nil is sent as 0xFFFFFF.
func encodeTimeOfReception(_ tor: UInt32?, into out: inout [UInt8]) {
    let v = tor ?? 0xFF_FFFF
    out.append(UInt8(v & 0xFF))
    out.append(UInt8((v >> 8) & 0xFF))
    out.append(UInt8((v >> 16) & 0xFF))
}
