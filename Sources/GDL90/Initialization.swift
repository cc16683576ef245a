/// Initialization, message 0x02 (ICD §3.2): sent by a display to the GDL 90; rarely seen.
public struct Initialization: Hashable, Sendable {
    /// Message ID.
    public static let id: UInt8 = 0x02
    /// Length with the ID byte.
    public static let length = 3

    /// Configuration 1 bit 6: initiate the audio test.
    public var audioTest: Bool
    /// Configuration 1 bit 1: suppress audio output.
    public var audioInhibit: Bool
    /// Configuration 1 bit 0: a CDTI is operating.
    public var cdtiOK: Bool
    /// Configuration 2 bit 1: disable audible CSA traffic alerts.
    public var csaAudioDisable: Bool
    /// Configuration 2 bit 0: disable CSA traffic alerting.
    public var csaDisable: Bool

    /// Creates an initialization message.
    public init(audioTest: Bool = false, audioInhibit: Bool = false, cdtiOK: Bool = false, csaAudioDisable: Bool = false, csaDisable: Bool = false) {
        self.audioTest = audioTest
        self.audioInhibit = audioInhibit
        self.cdtiOK = cdtiOK
        self.csaAudioDisable = csaAudioDisable
        self.csaDisable = csaDisable
    }

    init(_ m: MessageBytes) throws(MessageError) {
        try MessageError.check(m, Self.length)
        self.init(
            audioTest: m[1] & 0x40 != 0, audioInhibit: m[1] & 0x02 != 0, cdtiOK: m[1] & 0x01 != 0,
            csaAudioDisable: m[2] & 0x02 != 0, csaDisable: m[2] & 0x01 != 0)
    }

    func encode(into out: inout [UInt8]) {
        out.append(Self.id)
        out.append((audioTest ? 0x40 : 0) | (audioInhibit ? 0x02 : 0) | (cdtiOK ? 0x01 : 0))
        out.append((csaAudioDisable ? 0x02 : 0) | (csaDisable ? 0x01 : 0))
    }
}
