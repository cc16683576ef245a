/// One decoded GDL 90 message.
public enum Message: Hashable, Sendable {
    /// 0x00 Heartbeat.
    case heartbeat(Heartbeat)
    /// 0x02 Initialization.
    case initialization(Initialization)
    /// 0x07 Uplink Data (FIS-B).
    case uplink(Uplink)
    /// 0x09 Height Above Terrain.
    case heightAboveTerrain(HeightAboveTerrain)
    /// 0x0A Ownship Report.
    case ownship(TrafficReport)
    /// 0x0B Ownship Geometric Altitude.
    case ownshipGeoAltitude(OwnshipGeometricAltitude)
    /// 0x14 Traffic Report.
    case traffic(TrafficReport)
    /// 0x1E Basic UAT Report.
    case basicReport(UATReport)
    /// 0x1F Long UAT Report.
    case longReport(UATReport)
    /// 0x65 sub 0 ForeFlight ID.
    case foreFlightID(ForeFlightID)
    /// 0x65 sub 1 ForeFlight AHRS.
    case foreFlightAHRS(ForeFlightAHRS)
    /// 0xCC Stratux heartbeat.
    case stratuxHeartbeat(StratuxHeartbeat)
    /// 0x53 0x58 Stratux status.
    case stratuxStatus(StratuxStatus)
    /// 0x4C 0x45 Levil AHRS.
    indirect case levilAHRS(LevilAHRS)
    /// Any other message (including SkyRadar's 0x65 variant), with its ID and payload.
    case unknown(id: UInt8, payload: [UInt8])

    /// Message IDs.
    public enum ID {
        /// Ownship Report.
        public static let ownship: UInt8 = 0x0A
        /// Traffic Report.
        public static let traffic: UInt8 = 0x14
    }

    /// Every ``typeName``, in the order of ``typeIndex``.
    public static let typeNames = [
        "heartbeat", "initialization", "uplink", "heightAboveTerrain", "ownship", "ownshipGeoAltitude",
        "traffic", "basicReport", "longReport", "foreFlightID", "foreFlightAHRS", "stratuxHeartbeat",
        "stratuxStatus", "levilAHRS", "unknown",
    ]

    /// The position of this message's kind in ``typeNames``: a cheap key for per-type counters.
    public var typeIndex: Int {
        switch self {
        case .heartbeat: 0
        case .initialization: 1
        case .uplink: 2
        case .heightAboveTerrain: 3
        case .ownship: 4
        case .ownshipGeoAltitude: 5
        case .traffic: 6
        case .basicReport: 7
        case .longReport: 8
        case .foreFlightID: 9
        case .foreFlightAHRS: 10
        case .stratuxHeartbeat: 11
        case .stratuxStatus: 12
        case .levilAHRS: 13
        case .unknown: 14
        }
    }

    /// The name used in the JSON `type` field.
    public var typeName: String { Self.typeNames[typeIndex] }

    /// Decodes one message (ID and payload) held in an array slice.
    public static func decode(_ message: ArraySlice<UInt8>) throws(MessageError) -> Message {
        let result = message.withUnsafeBytes { raw in Result { () throws(MessageError) -> Message in try decode(raw) } }
        return try result.get()
    }

    /// Decodes one message (ID and payload, as a `Frame` hands it on). Nothing of `message` is
    /// kept: payloads are copied into the returned value.
    public static func decode(_ message: UnsafeRawBufferPointer) throws(MessageError) -> Message {
        guard !message.isEmpty else { throw MessageError(reason: .empty, messageID: 0, expected: 1, actual: 0) }
        let m = MessageBytes(message)
        switch m[0] {
        case Heartbeat.id: return .heartbeat(try Heartbeat(m))
        case Initialization.id: return .initialization(try Initialization(m))
        case Uplink.id: return .uplink(try Uplink(m))
        case HeightAboveTerrain.id: return .heightAboveTerrain(try HeightAboveTerrain(m))
        case ID.ownship: return .ownship(try TrafficReport(m))
        case OwnshipGeometricAltitude.id: return .ownshipGeoAltitude(try OwnshipGeometricAltitude(m))
        case ID.traffic: return .traffic(try TrafficReport(m))
        case UATReport.basicID: return .basicReport(try UATReport(m, long: false))
        case UATReport.longID: return .longReport(try UATReport(m, long: true))
        case ForeFlightID.id where m.count >= 2 && m[1] == ForeFlightID.subID && m.count == ForeFlightID.length:
            return .foreFlightID(try ForeFlightID(m))
        case ForeFlightID.id where m.count >= 2 && m[1] == ForeFlightAHRS.subID && m.count == ForeFlightAHRS.length:
            return .foreFlightAHRS(try ForeFlightAHRS(m))
        case StratuxHeartbeat.id: return .stratuxHeartbeat(try StratuxHeartbeat(m))
        case StratuxStatus.id where m.count >= 2 && m[1] == StratuxStatus.secondByte:
            return .stratuxStatus(try StratuxStatus(m))
        case LevilAHRS.id where m.count >= 4 && m[1] == 0x45 && m[3] == 0x01:
            return .levilAHRS(try LevilAHRS(m))
        default:
            return .unknown(id: m[0], payload: Array(message[1...]))
        }
    }

    /// Decodes a message held in an array.
    public static func decode(_ message: [UInt8]) throws(MessageError) -> Message {
        try decode(message[...])
    }

    /// Encodes the message: ID followed by payload, ready for `Framer`.
    public func encode() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(40)
        encode(into: &out)
        return out
    }

    /// Appends the encoded message (ID and payload) to `out`.
    public func encode(into out: inout [UInt8]) {
        switch self {
        case .heartbeat(let v): v.encode(into: &out)
        case .initialization(let v): v.encode(into: &out)
        case .uplink(let v): v.encode(into: &out)
        case .heightAboveTerrain(let v): v.encode(into: &out)
        case .ownship(let v): v.encode(id: ID.ownship, into: &out)
        case .ownshipGeoAltitude(let v): v.encode(into: &out)
        case .traffic(let v): v.encode(id: ID.traffic, into: &out)
        case .basicReport(let v): v.encode(id: UATReport.basicID, into: &out)
        case .longReport(let v): v.encode(id: UATReport.longID, into: &out)
        case .foreFlightID(let v): v.encode(into: &out)
        case .foreFlightAHRS(let v): v.encode(into: &out)
        case .stratuxHeartbeat(let v): v.encode(into: &out)
        case .stratuxStatus(let v): v.encode(into: &out)
        case .levilAHRS(let v): v.encode(into: &out)
        case .unknown(let id, let payload):
            out.append(id)
            out.append(contentsOf: payload)
        }
    }

    /// The complete frame (flags, byte-stuffing, CRC) for this message.
    public func frame() -> [UInt8] { Framer.frame(encode()) }
}
