/// Height Above Terrain, message 0x09 (ICD §3.7).
public struct HeightAboveTerrain: Hashable, Sendable {
    /// Message ID.
    public static let id: UInt8 = 0x09
    /// Length with the ID byte.
    public static let length = 3

    /// Height above terrain in feet, or nil when invalid (0x8000).
    public var feet: Int?

    /// Creates the message.
    public init(feet: Int?) { self.feet = feet }

    init(_ m: MessageBytes) throws(MessageError) {
        try MessageError.check(m, Self.length)
        let raw = m.u16(1)
        feet = raw == 0x8000 ? nil : Int(Int16(bitPattern: raw))
    }

    func encode(into out: inout [UInt8]) {
        out.append(Self.id)
        if let feet { out.appendI16(Int16(clamping: max(-32767, feet))) } else { out.appendU16(0x8000) }
    }
}
