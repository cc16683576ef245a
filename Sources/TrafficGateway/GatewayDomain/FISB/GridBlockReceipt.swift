import GDL90

/// One block of a gridded FIS-B product as it was heard: the block, its product's time (the
/// observation time of NEXRAD and lightning, the valid time of the forecast grids; resolved to an
/// absolute time near the reception) and when it arrived. What the radar pictures are assembled
/// from, off the core's queue (`OutputOptions.grids`).
package struct GridBlockReceipt: Sendable, Hashable {
    /// The block.
    package var block: GriddedBlock
    /// Its product's time (seconds since 1970), nil when the APDU carried none.
    package var productTime: Double?
    /// When it was received (the event clock).
    package var received: Double

    /// A receipt.
    package init(block: GriddedBlock, productTime: Double?, received: Double) {
        self.block = block
        self.productTime = productTime
        self.received = received
    }
}
