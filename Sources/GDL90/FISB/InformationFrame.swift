/// One information frame of a UAT uplink: a 9-bit length, a 4-bit type, then that many bytes.
public enum InformationFrame: Hashable, Sendable {
    /// Type 0: a FIS-B APDU.
    case apdu(APDU)
    /// Type 14: a current report list.
    case currentReportList(CurrentReportList)
    /// Type 15: service status.
    case serviceStatus(ServiceStatus)
    /// Any other type (reserved, TIS-B/developmental), kept as sent.
    case other(type: Int, data: [UInt8])

    /// Frame type numbers.
    public enum FrameType {
        /// FIS-B APDU.
        public static let apdu = 0
        /// Current report list.
        public static let currentReportList = 14
        /// Service status.
        public static let serviceStatus = 15
    }

    /// Largest frame data length the 9-bit length field can express.
    public static let maximumLength = 511

    /// The frame type number.
    public var type: Int {
        switch self {
        case .apdu: FrameType.apdu
        case .currentReportList: FrameType.currentReportList
        case .serviceStatus: FrameType.serviceStatus
        case .other(let type, _): type
        }
    }

    /// Decodes frame data of the given type.
    public init(type: Int, data: [UInt8]) throws(FISBError) {
        switch type {
        case FrameType.apdu: self = .apdu(try APDU(data))
        case FrameType.currentReportList: self = .currentReportList(try CurrentReportList(data))
        case FrameType.serviceStatus: self = .serviceStatus(ServiceStatus(data))
        default: self = .other(type: type, data: data)
        }
    }

    /// The frame data (without the 2-byte frame header).
    public func encodeData() -> [UInt8] {
        switch self {
        case .apdu(let a): a.encode()
        case .currentReportList(let c): c.encode()
        case .serviceStatus(let s): s.encode()
        case .other(_, let data): data
        }
    }

    /// Appends the 2-byte frame header (length, type) and the data.
    public func encode(into out: inout [UInt8]) {
        let data = encodeData()
        let length = Swift.min(data.count, Self.maximumLength)
        out.append(UInt8(length >> 1))
        out.append(UInt8((length & 1) << 7 | (type & 0x0F)))
        out.append(contentsOf: data.prefix(length))
    }
}
