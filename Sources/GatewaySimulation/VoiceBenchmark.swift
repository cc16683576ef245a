import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GatewaySupport
import GatewayDomain
import GatewayCaptures
import GatewayRecords
import GatewayNotams
import GatewayVoice
import GatewayRuntime
#if canImport(Glibc)
import Glibc
#endif

extension Benchmarks {
    /// The voice (issue 22): CPU to render the callout vocabulary at start, and the time from a
    /// datagram's arrival at the core's queue to the first PCM frame of its callout handed to ALSA.
    ///
    /// The latency runs the bundled captures (the demo flight with its NOTAMs, every scenario)
    /// `rounds` times through the path `run` wires: a `CaptureReplay` pipeline on one serial
    /// queue whose outputs go to a `VoiceSink` (its own queue and playback thread) playing into an
    /// ALSA `null` PCM. Datagrams are handed over 2 ms apart, in capture order, with their capture
    /// times as event times, so the voice is idle (in event time) when each alert comes and the
    /// figure is the path's own cost, not a queue. Only callouts started by the datagram's own
    /// alert count (a warning's repeat or a queued callout waits on purpose).
    package static func voice(fixtures: String = "fixtures", rounds: Int = 8) throws -> [Result] {
        func threadCPU() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }
        var started = threadCPU()
        let vocabulary = try CalloutVocabulary()
        let first = threadCPU() - started
        var again = Double.infinity
        for _ in 0..<3 {
            started = threadCPU()
            _ = try CalloutVocabulary()
            again = min(again, threadCPU() - started)
        }
        let phrases = vocabulary.clips.count
        let seconds = Double(vocabulary.clips.values.reduce(0) { $0 + $1.count }) / Double(vocabulary.sampleRate)
        let megabytes = Double(vocabulary.clips.values.reduce(0) { $0 + $1.count } * 2) / 1_048_576

        let cases: [(capture: String, notams: String?, gps: String?)] = [("demo-flight.pcap", "notams-demo.json", nil)]
            + ["parked", "gaps", "churn", "twins", "echo", "frozen", "turning", "flicker"].map { ("scenarios/\($0).pcap", nil, $0 == "echo" ? "scenarios/echo.gps.jsonl" : nil) }
        var latencies: [Double] = []
        var callouts = 0
        for _ in 0..<rounds {
            for c in cases {
                let capture = try CaptureFile.read(path: "\(fixtures)/\(c.capture)")
                let fixes = try c.gps.map { try GPSLog.read(path: "\(fixtures)/\($0)").fixes } ?? []
                let areas = try AirspaceSet.load(database: nil, notamFiles: c.notams.map { ["\(fixtures)/\($0)"] } ?? [])
                let run = try voiceLatency(capture.datagrams, fixes: fixes, areas: areas)
                latencies += run.latencies
                callouts += run.callouts
            }
        }
        latencies.sort()
        func pct(_ p: Double) -> Double { latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        return [
            Result(name: "voice: vocabulary rendered at start, CPU", value: first * 1000, unit: "ms",
                   note: "\(phrases) phrases, \(JSONWriter.format(seconds, decimals: 1)) s of speech, \(JSONWriter.format(megabytes, decimals: 2)) MB of PCM; first render incl. espeak-ng start; again: \(JSONWriter.format(again * 1000, decimals: 1)) ms"),
            Result(name: "voice: datagram arrival to first PCM frame handed to ALSA, p50", value: pct(0.5), unit: "ms",
                   note: "\(latencies.count) callouts started by their datagram's alert (\(callouts) in all), \(rounds) rounds of the bundled captures"),
            Result(name: "voice: datagram arrival to first PCM frame handed to ALSA, p99", value: pct(0.99), unit: "ms", note: "target < 50 ms"),
            Result(name: "voice: datagram arrival to first PCM frame handed to ALSA, max", value: latencies.last ?? 0, unit: "ms"),
        ]
    }

    private static func voiceLatency(_ datagrams: [CapturedDatagram], fixes: [TimedGPSFix], areas: [AirspaceArea]) throws
        -> (latencies: [Double], callouts: Int)
    {
        var settings = VoiceSink.Settings()
        settings.device = "bench_null"
        settings.alsaConfiguration = "pcm.bench_null { type null }"
        let arrivals = Locked<[Double: UInt64]>([:])
        let measured = Locked<(latencies: [Double], callouts: Int)>(([], 0))
        let sink = VoiceSink(settings: settings, onFirstFrames: { callout, _ in
            let now = DispatchTime.now().uptimeNanoseconds
            let arrival = arrivals.withLock { $0[callout.time] }
            measured.withLock { m in
                m.callouts += 1
                if let arrival { m.latencies.append(Double(now - arrival) / 1e6) }
            }
        }) { line in let text = Array("voice bench: \(line)\n".utf8); _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) } }
        sink.start()
        sink.waitUntilReady()
        let core = DispatchQueue(label: "bench.voice.core")
        // The pipeline's state, behind a lock taken only on the bench's core queue.
        let box = Locked(CaptureReplay(pipeline: GatewayPipeline(), gpsFixes: fixes))
        if let t = datagrams.first?.timestamp, !areas.isEmpty {
            core.sync {
                var out = box.withLock { $0.process(.airspace(areas), at: t) }
                out.flight = nil
                sink.carryOut(out, at: t)
            }
        }
        for d in datagrams {
            let arrival = DispatchTime.now().uptimeNanoseconds
            core.async {
                if let t = d.timestamp { arrivals.withLock { if $0[t] == nil { $0[t] = arrival } } }
                let (out, now) = box.withLock { r in (r.process(d), r.pipeline.now) }
                sink.carryOut(out, at: now ?? d.timestamp ?? 0)
            }
            usleep(2_000)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        }
        core.sync {}
        usleep(300_000)  // concurrency: the benchmark and test harness (GatewaySimulation) paces its own load and waits for its peers; never on the daemon's path
        sink.stop()
        return measured.value
    }
}
