/// A service status frame (information frame type 15): the aircraft a ground station currently
/// serves with TIS-B/ADS-R, four bytes each.
public struct ServiceStatus: Hashable, Sendable {
    /// One served aircraft.
    public struct Entry: Hashable, Sendable {
        /// Services (4 bits; DO-282C: bit 0 TIS-B, bit 1 ADS-R, bit 2 ADS-SLR).
        public var services: Int
        /// Signal type bit (1 normally; 0 when the service is ending).
        public var signalType: Int
        /// Address qualifier (3 bits, 0 ADS-B ICAO … 6 ADS-R non-ICAO).
        public var addressQualifier: Int
        /// 24-bit address.
        public var address: UInt32

        /// Creates an entry.
        public init(services: Int = 0, signalType: Int = 1, addressQualifier: Int = 0, address: UInt32) {
            self.services = services
            self.signalType = signalType
            self.addressQualifier = addressQualifier
            self.address = address
        }
    }

    /// The served aircraft.
    public var entries: [Entry]

    /// Creates a frame.
    public init(entries: [Entry]) { self.entries = entries }

    /// Decodes the frame data; a trailing partial entry is ignored.
    public init(_ data: [UInt8]) {
        var entries: [Entry] = []
        entries.reserveCapacity(data.count / 4)
        var i = 0
        while i + 4 <= data.count {
            let b = data[i]
            entries.append(Entry(services: Int(b >> 4), signalType: Int(b >> 3 & 1), addressQualifier: Int(b & 7),
                                 address: UInt32(data[i + 1]) << 16 | UInt32(data[i + 2]) << 8 | UInt32(data[i + 3])))
            i += 4
        }
        self.entries = entries
    }

    /// The frame data.
    public func encode() -> [UInt8] {
        var out: [UInt8] = []
        for e in entries {
            out.append(UInt8((e.services & 0xF) << 4 | (e.signalType & 1) << 3 | (e.addressQualifier & 7)))
            out.appendU24(e.address & 0xFF_FFFF)
        }
        return out
    }
}
