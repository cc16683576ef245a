import GDL90

/// Runs `bytes` through a fresh deframer in chunks of `chunk` bytes and collects what it reports.
func deframe(_ bytes: [UInt8], chunk: Int = .max) -> (frames: [[UInt8]], errors: [FrameError]) {
    var deframer = Deframer()
    var frames: [[UInt8]] = []
    var errors: [FrameError] = []
    let sink: (DeframerEvent) -> Void = { event in
        switch event {
        case .frame(let f): frames.append(Array(f.message))
        case .rejected(let e): errors.append(e)
        }
    }
    var i = 0
    while i < bytes.count {
        let end = min(bytes.count, i + min(chunk, bytes.count))
        deframer.feed(bytes[i..<end], sink)
        i = end
    }
    deframer.finish(sink)
    return (frames, errors)
}

/// Parses "7E 00 81" style hex.
func hex(_ s: String) -> [UInt8] {
    s.split(separator: " ").map { UInt8($0, radix: 16)! }
}

/// Numbers from a seed (a 64-bit linear congruential generator): the same on every run and
/// machine, so a randomised test that fails fails again.
struct SeededNumbers {
    private var seed: UInt64

    init(seed: UInt64) { self.seed = seed }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((seed >> 33) % UInt64(bound))
    }
}
