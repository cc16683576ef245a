import GDL90

/// An uplink payload read as far as its bytes alone allow: its header, its information frames,
/// and the products of its whole APDUs prepared (found again by their bytes, or decoded). What
/// `FISBProductStore.ingest` starts from; reading needs no store, so it can run ahead on another
/// thread (`FrameDecoder`, reading for `replay` and `fisb`).
package struct FISBReadUplink: Sendable {
    /// An information frame as read.
    enum Frame: Sendable {
        /// A frame the store must see itself: a segment of an APDU (reassembled in order), a
        /// current report list, a service status, another frame.
        case frame(InformationFrame)
        /// A whole APDU's product, prepared.
        case prepared(FISBPreparedProduct)
    }

    enum Outcome: Sendable {
        /// No application data (a ground station's filler).
        case empty
        /// The header could not be read.
        case bad(FISBError)
        /// The frames in order, and the frames skipped with why.
        case read(UATUplinkHeader, [Frame], errors: [FISBError])
    }

    var outcome: Outcome
}

/// Reads uplink payloads into `FISBReadUplink`s, keeping the products it prepares by their APDU
/// bytes (`FISBProductCache`): real FIS-B rebroadcasts the same products over and over.
package struct FISBUplinkReader: Sendable {
    /// Prepared products by APDU bytes.
    var cache = FISBProductCache()
    /// Keep prepared products by their APDU bytes and reuse them (see the store's).
    var reusesDecodedProducts = true

    /// A reader with an empty cache.
    package init() {}

    /// Products whose decoding is worth keeping: generic text and TWGO (DLAC text, records,
    /// fields read from the text). Gridded blocks rarely repeat and decode cheaply.
    static func isKept(_ productID: Int) -> Bool {
        switch FISBProductContent.Family.of(productID: productID) {
        case .genericText, .twgo: true
        case .gridded, nil: false
        }
    }

    /// Whether the APDU in `payload[data]` carries a kept product: its ID read from the APDU
    /// header's first bits, before any decoding.
    static func isKept(apdu data: Range<Int>, of payload: [UInt8]) -> Bool {
        data.count >= 2 && isKept(Int(payload[data.lowerBound] & 0x1F) << 6 | Int(payload[data.lowerBound + 1] >> 2))
    }

    /// Reads one 432-byte uplink payload as `FISBUplink(payload:)` does, but an APDU frame whose
    /// bytes were seen before is not decoded again, and whole APDUs come with their products.
    package mutating func read(_ payload: [UInt8]) -> FISBReadUplink {
        read(payload, ahead: false)!
    }

    /// `read(_:)` on a thread other than the store's: nil for an uplink carrying a product that
    /// is not kept by its bytes (a gridded block), which the store reads itself. Such products
    /// are held by the store long after (a NEXRAD composite's blocks); prepared here, their memory
    /// would be freed on the store's thread, and glibc makes the two threads queue for that
    /// (`fisb --json` of a NEXRAD-heavy capture: 3,124 `futex` calls, a third slower).
    package mutating func readAhead(_ payload: [UInt8]) -> FISBReadUplink? {
        read(payload, ahead: true)
    }

    private mutating func read(_ payload: [UInt8], ahead: Bool) -> FISBReadUplink? {
        if FISBUplink.isEmpty(payload) { return FISBReadUplink(outcome: .empty) }
        let header: UATUplinkHeader
        do {
            header = try UATUplinkHeader(payload)
        } catch {
            return FISBReadUplink(outcome: .bad(error))
        }
        var frames: [FISBReadUplink.Frame] = []
        var errors: [FISBError] = []
        if header.applicationDataValid {
            if ahead {
                // Looked for before anything is decoded: the store reads such an uplink whole.
                var leftToTheStore = false
                FISBUplink.forEachFrame(in: payload) { type, data, _ in
                    if type == InformationFrame.FrameType.apdu && !Self.isKept(apdu: data, of: payload) { leftToTheStore = true }
                }
                if leftToTheStore { return nil }
            }
            let reuse = reusesDecodedProducts
            FISBUplink.forEachFrame(in: payload) { type, data, capped in
                if let capped { errors.append(capped) }
                if type == InformationFrame.FrameType.apdu {
                    let kept = Self.isKept(apdu: data, of: payload)
                    if reuse && kept, let known = cache.product(for: payload[data]) {
                        frames.append(.prepared(known))
                        return
                    }
                    // Decoded where it lies; its bytes copied out only to be kept by them.
                    do throws(FISBError) {
                        let apdu = try APDU(payload, in: data)
                        guard apdu.segment == nil else {
                            frames.append(.frame(.apdu(apdu)))
                            return
                        }
                        let product = FISBPreparedProduct(apdu)
                        if reuse && kept { cache.insert(product, for: Array(payload[data])) }
                        frames.append(.prepared(product))
                    } catch {
                        var e = error
                        e.offset -= data.lowerBound  // as if decoded from the frame's data alone
                        errors.append(FISBUplink.skipped(e, type: type, data: data))
                    }
                    return
                }
                do throws(FISBError) {
                    frames.append(.frame(try InformationFrame(type: type, data: Array(payload[data]))))
                } catch {
                    errors.append(FISBUplink.skipped(error, type: type, data: data))
                }
            }
        }
        return FISBReadUplink(outcome: .read(header, frames, errors: errors))
    }
}
