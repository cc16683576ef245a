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
        if apdu.productID == GenericTextProduct.productID {
            self = .genericText(GenericTextProduct(apdu.payload))
        } else if Self.twgoProducts.contains(apdu.productID) {
            self = .twgo(try TWGOProduct(apdu.payload))
        } else if Self.griddedProducts.contains(apdu.productID) {
            self = .gridded(try GriddedBlock(productID: apdu.productID, payload: apdu.payload))
        } else {
            throw FISBError(.unknownProduct, at: 0, "APDU product ID \(apdu.productID) is not a FIS-B product this decoder knows")
        }
    }
}
