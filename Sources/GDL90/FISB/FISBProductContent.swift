/// The decoded payload of a whole (unsegmented or reassembled) APDU, by product family.
public enum FISBProductContent: Hashable, Sendable {
    /// Product 413: generic text records.
    case genericText(GenericTextProduct)
    /// Products 8, 11–19: text with graphic overlay.
    case twgo(TWGOProduct)
    /// Gridded products (63/64 NEXRAD, 70/71 icing, 84 cloud tops, 90/91 turbulence, 103
    /// lightning): one block of bins, or a bitmap of empty blocks.
    case gridded(GriddedBlock)

    /// Products using the text-with-graphic-overlay format.
    public static let twgoProducts: Set<Int> = [8, 11, 12, 13, 14, 15, 16, 17, 18, 19]
    /// Gridded (global block) products.
    public static let griddedProducts: Set<Int> = [63, 64, 70, 71, 84, 90, 91, 103]

    /// Decodes the payload of `apdu`, which must not be a segment.
    public init(_ apdu: APDU) throws(FISBError) {
        switch Family.of(productID: apdu.productID) {
        case .genericText: self = .genericText(GenericTextProduct(apdu.payload))
        case .twgo: self = .twgo(try TWGOProduct(apdu.payload))
        case .gridded: self = .gridded(try GriddedBlock(productID: apdu.productID, payload: apdu.payload))
        case nil: throw FISBError(.unknownProduct, at: 0, "APDU product ID \(apdu.productID) is not a FIS-B product this decoder knows")
        }
    }

    /// The format family of a product ID (as `twgoProducts` and `griddedProducts` list them),
    /// nil for an unknown product; a switch, with no set to hash into for every APDU.
    public enum Family: Sendable {
        /// Product 413.
        case genericText
        /// Text with graphic overlay.
        case twgo
        /// Gridded.
        case gridded

        /// The family of `productID`.
        public static func of(productID: Int) -> Family? {
            switch productID {
            case GenericTextProduct.productID: .genericText
            case 8, 11...19: .twgo
            case 63, 64, 70, 71, 84, 90, 91, 103: .gridded
            default: nil
            }
        }
    }
}
