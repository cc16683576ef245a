import GatewaySupport

/// The three files of a picture, as map tools read them: `<kind>.png` (indexed colour),
/// `<kind>.pgw` (its ESRI world file, WGS 84 degrees) and `<kind>.json` (what it shows). Each is
/// written whole beside itself and renamed into place (`FileOutput`): a power cut leaves the old
/// picture or the new one.
package enum RadarFiles {
    /// Writes `image` into `folder` (created if missing); returns the paths written.
    @discardableResult
    package static func write(_ image: RadarImage, into folder: String) throws(GatewayError) -> [String] {
        try makeDirectories(folder)
        let stem = (folder.hasSuffix("/") ? folder : folder + "/") + image.kind.name
        try FileOutput.write(image.png(), to: stem + ".png")
        try FileOutput.write(Array(image.worldFile.utf8), to: stem + ".pgw")
        try FileOutput.write(Array((image.json + "\n").utf8), to: stem + ".json")
        return [stem + ".png", stem + ".pgw", stem + ".json"]
    }
}
