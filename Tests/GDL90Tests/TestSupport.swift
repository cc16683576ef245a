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
