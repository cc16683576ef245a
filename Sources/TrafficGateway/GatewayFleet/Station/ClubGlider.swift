import GatewaySupport

/// One of the club's aircraft the ground station follows through the Open Glider Network
/// (`[fleet] ogn_ids = ["DD1234=D-KABC"]`): its FLARM (or OGN tracker) id and the registration
/// the fleet page shows it by, beside the aircraft that carry a gateway.
package struct ClubGlider: Sendable, Hashable, CustomStringConvertible {
    /// The 24-bit FLARM or OGN tracker id (six hexadecimal digits in the entry).
    package var id: UInt32
    /// The registration or competition sign (`D-KABC`), its name on the fleet page.
    package var registration: String

    /// A glider.
    package init(id: UInt32, registration: String) {
        self.id = id & 0xFF_FFFF
        self.registration = registration
    }

    /// Reads an entry `ID=REGISTRATION`; nil when it is not one (`problem(entry:)` says why).
    package init?(entry: String) {
        guard Self.problem(entry: entry) == nil, let equals = entry.firstIndex(of: "=") else { return nil }
        let id = String(entry[..<equals]).trimmingWhitespace(), registration = String(entry[entry.index(after: equals)...]).trimmingWhitespace()
        self.init(id: UInt32(id, radix: 16)!, registration: registration)
    }

    /// Why `entry` is not `ID=REGISTRATION` (nil when it is): six hexadecimal digits, `=`, and a
    /// registration the fleet can name (`FleetSettings.isValidID`: no spaces, `/`, `+`, `#`).
    package static func problem(entry: String) -> String? {
        guard let equals = entry.firstIndex(of: "=") else {
            return "\"\(entry.escapingControlCharacters)\" has no '=': write the FLARM id, '=' and the registration, \"DD1234=D-KABC\""
        }
        let id = String(entry[..<equals]).trimmingWhitespace(), registration = String(entry[entry.index(after: equals)...]).trimmingWhitespace()
        guard id.count == 6, UInt32(id, radix: 16) != nil else {
            return "\"\(entry.escapingControlCharacters)\": '\(id.escapingControlCharacters)' is not a FLARM id (six hexadecimal digits, as in FLRDD1234's DD1234)"
        }
        guard FleetSettings.isValidID(registration) else {
            return "\"\(entry.escapingControlCharacters)\": '\(registration.escapingControlCharacters)' cannot name an aircraft of the fleet (1–64 bytes without spaces, / + # or control characters)"
        }
        return nil
    }

    /// `DD1234=D-KABC`.
    package var description: String { hex + "=" + registration }

    /// The id as six upper-case hexadecimal digits.
    package var hex: String {
        let digits = String(id, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
