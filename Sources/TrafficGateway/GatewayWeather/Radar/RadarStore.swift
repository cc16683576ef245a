import GatewaySupport
import GatewayDomain
import Dispatch

/// The radar pictures of a running gateway: the gridded blocks the core hears are handed over
/// (`submit`, from the core's queue: never waits), assembled on a queue of their own, and drawn
/// when a picture is asked for (on the asker's thread, once a composite: cached until it changes).
/// At most `maximumPending` blocks wait to be assembled; past that they are dropped and counted
/// (a flood must not grow memory or reach the core).
package final class RadarStore: Sendable {
    /// A picture ready to serve.
    package struct Picture: Sendable {
        /// The PNG file.
        package var png: [UInt8]
        /// The world file.
        package var worldFile: String
        /// The sidecar JSON.
        package var json: String
        /// An entity tag that changes whenever the picture does.
        package var etag: String
        /// When the picture last changed (its latest block's reception), seconds since 1970.
        package var modified: Double
        /// The product time.
        package var time: Double
    }

    private struct Cached {
        var time: Double
        var revision: Int
        var picture: Picture
    }

    private struct State {
        var assembler: RadarAssembler
        var cache: [RadarKind: Cached] = [:]
        /// Loop frames drawn, by kind and time (pruned to the frames of the current loops).
        var frames: [RadarKind: [Double: Cached]] = [:]
        var pending = 0
        var droppedPending = 0
        var notDrawn: [RadarKind: String] = [:]
    }

    /// Blocks waiting to be assembled at most.
    package static let maximumPending = 20_000

    private let state: Locked<State>
    private let queue = DispatchQueue(label: "gatewayd.radar")

    /// An empty store.
    package init(limits: RadarAssembler.Limits = RadarAssembler.Limits()) {
        state = Locked(State(assembler: RadarAssembler(limits: limits)))
    }

    /// Hands blocks over to be assembled (returns at once).
    package func submit(_ receipts: [GridBlockReceipt]) {
        guard !receipts.isEmpty else { return }
        let accepted = state.withLock { s -> Bool in
            guard s.pending + receipts.count <= Self.maximumPending else {
                s.droppedPending += receipts.count
                return false
            }
            s.pending += receipts.count
            return true
        }
        guard accepted else { return }
        queue.async { [state] in
            state.withLock { s in
                s.assembler.add(receipts)
                s.pending -= receipts.count
            }
        }
    }

    /// Waits until every block handed over is assembled.
    package func drain() { queue.sync {} }

    /// The kinds with a picture, by name.
    package var kinds: [RadarKind] { state.withLock { $0.assembler.kinds } }

    /// The counters, the blocks dropped while too many waited, and what is held.
    package var status: (counters: RadarAssembler.Counters, droppedPending: Int, blocksHeld: Int, composites: Int, bytes: Int) {
        state.withLock { ($0.assembler.counters, $0.droppedPending, $0.assembler.blocksHeld, $0.assembler.compositeCount, $0.assembler.storageBytes) }
    }

    /// The latest complete picture of `kind` (or, with `time`, its loop frame of that product
    /// time), drawn now if it changed since last asked; nil when there is none (or it cannot be
    /// drawn: `notDrawn` says why).
    package func picture(_ kind: RadarKind, time: Double? = nil) -> Picture? {
        let (composite, cached) = state.withLock { s -> (RadarComposite?, Cached?) in
            guard let time else { return (s.assembler.latest(kind), s.cache[kind]) }
            return (s.assembler.loop(kind).first { $0.time == time }, s.frames[kind]?[time])
        }
        guard let composite else { return nil }
        if let cached, cached.time == composite.time, cached.revision == composite.revision { return cached.picture }
        let image: RadarImage
        do {
            image = try RadarImage(composite)
        } catch {
            state.withLock { $0.notDrawn[kind] = error.description }
            return nil
        }
        let picture = Picture(png: image.png(), worldFile: image.worldFile, json: image.json,
                              etag: "\"\(kind.name)-\(Int64(composite.time))-\(composite.revision)\"", modified: composite.lastReceived,
                              time: composite.time)
        let drawn = Cached(time: composite.time, revision: composite.revision, picture: picture)
        state.withLock { s in
            if time != nil {
                // Frames kept: those of the current loop only.
                let times = Set(s.assembler.loop(kind).map(\.time))
                var frames = (s.frames[kind] ?? [:]).filter { times.contains($0.key) }
                frames[composite.time] = drawn
                s.frames[kind] = frames
                return
            }
            s.notDrawn[kind] = nil
            // Another asker may have drawn a newer one meanwhile: keep the newest.
            if let c = s.cache[kind], c.time > composite.time || (c.time == composite.time && c.revision > composite.revision) { return }
            s.cache[kind] = drawn
        }
        return picture
    }

    /// The loop of `kind`: its complete composites of the last 30 minutes, oldest first, each
    /// with the path of its picture.
    package func loopJSON(_ kind: RadarKind) -> String {
        let frames = state.withLock { $0.assembler.loop(kind) }
        return "{\"kind\":\"\(kind.name)\",\"frames\":" + JSONWriter.array(frames.map { c in
            var w = JSONWriter()
            w.add("time", Timestamp.iso8601(c.time))
            w.add("blocks", c.blockCount)
            w.add("png", "/weather/\(kind.name).png?time=\(Int64(c.time))")
            w.add("json", "/weather/\(kind.name).json?time=\(Int64(c.time))")
            return w.result
        }) + "}"
    }

    /// Why `kind`'s latest composite could not be drawn, if it could not.
    package func notDrawn(_ kind: RadarKind) -> String? { state.withLock { $0.notDrawn[kind] } }

    /// The index `/weather/` serves: each kind with its time, age at `now`, and its files; and
    /// what was counted (blocks taken, and every kind refused: outside the grid, undefined
    /// values, too late, times going backwards, composites never completed or dropped).
    package func index(at now: Double) -> String {
        let pictures = state.withLock { s in
            s.assembler.kinds.compactMap { k in s.assembler.latest(k).map { (kind: k, latest: $0, frames: s.assembler.loop(k).count) } }
        }
        var items: [String] = []
        for (kind, c, frames) in pictures {
            var w = JSONWriter()
            w.add("kind", kind.name)
            w.add("product", kind.productID)
            w.add("time", Timestamp.iso8601(c.time))
            w.add("received", Timestamp.iso8601(c.lastReceived))
            w.add("ageMin", max(0, (now - c.time) / 60), decimals: 1)
            w.add("blocks", c.blockCount)
            w.add("loopFrames", frames)
            w.add("png", "/weather/\(kind.name).png")
            w.add("pgw", "/weather/\(kind.name).pgw")
            w.add("json", "/weather/\(kind.name).json")
            w.add("loop", "/weather/\(kind.name)/loop")
            items.append(w.result)
        }
        let (counters, dropped, held, composites) = state.withLock { ($0.assembler.counters, $0.droppedPending, $0.assembler.blocksHeld, $0.assembler.compositeCount) }
        var c = JSONWriter()
        c.add("blocks", counters.blocks)
        c.add("unknownProduct", counters.unknownProduct)
        c.add("outsideGrid", counters.outsideGrid)
        c.add("unknownValues", counters.unknownValues)
        c.add("late", counters.late)
        c.add("backwards", counters.backwards)
        c.add("incomplete", counters.incomplete)
        c.add("dropped", counters.dropped)
        c.add("refused", counters.refused)
        c.add("droppedWaiting", dropped)
        c.add("blocksHeld", held)
        c.add("composites", composites)
        c.add("summary", counters.summary + (dropped > 0 ? ", \(dropped) dropped while too many waited" : ""))
        return "{\"pictures\":" + JSONWriter.array(items) + ",\"counters\":" + c.result + "}"
    }
}
