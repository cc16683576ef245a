import ArgumentParser
import GatewayDomain
import GatewayCaptures
import GatewayVoice
import GatewayRuntime

extension ReplayCommand {
    /// `replay --callouts [--wav OUT]`: the callout timeline of the captures, printed as it is
    /// decided, and their audio written when asked.
    func replayCallouts(_ sessions: [ResolvedSession]) throws {
        let config = (try? GatewayConfig.load(path: GatewayConfig.defaultPath, required: false)) ?? GatewayConfig()
        // The spoken lengths pace the callouts: the rendered vocabulary's, as the voice has them.
        let vocabulary: CalloutVocabulary?
        do { vocabulary = try CalloutVocabulary(parameters: config.voiceSettings.speech) } catch {
            if wav != nil { throw CommandFailure("\(error)") }
            Terminal.error("note: \(error); callouts are paced by estimated lengths")
            vocabulary = nil
        }
        var timeline = CalloutTimeline(settings: config.voiceSettings.callouts, durations: vocabulary?.durations ?? .estimated)
        for session in sessions {
            guard let firstPath = session.captures.first else { continue }
            var capture = try openCapture(firstPath, port: port)
            var hours = session.captures.dropFirst().makeIterator()
            let day = try rawCaptureDate(date, &capture)
            if let note = day.note { Terminal.error("note: " + note) }
            var replay = CaptureReplay(pipeline: GatewayPipeline(timeSource: capture.format == .raw ? .heartbeat(midnight: day.midnight) : .given),
                                       gpsFixes: session.fixes, events: session.recorded)
            let pace = Pacer(speed: speed)
            var probe = replay
            let json = self.json
            var damaged: [String] = []
            timeline.replay(&replay, areas: session.areas, next: {
                while true {
                    if let d = capture.next() {
                        if pace.isPaced, let t = probe.eventTime(of: d) { pace.wait(until: t) }
                        return d
                    }
                    if let damage = capture.error { damaged.append("\(damage)") }
                    // The session's next hour, if any (one that will not open is said and skipped).
                    guard let path = hours.next() else { return nil }
                    do { capture = try openCapture(path, port: port) } catch { damaged.append("\(error)") }
                }
            }, emit: { Terminal.out($0.map { json ? $0.json : $0.line }) })
            for damage in damaged { Terminal.error("warning: \(damage)") }
        }
        if let wav, let vocabulary, let span = timeline.span {
            let samples = WAVFile.render(timeline.callouts, vocabulary: vocabulary, from: span.lowerBound, to: span.upperBound)
            do { try WAVFile.write(samples, sampleRate: vocabulary.sampleRate, to: wav) } catch { throw CommandFailure("\(error)") }
            if !quiet {
                Terminal.error("wrote \(wav): \(timeline.callouts.count) callouts in \(samples.count / vocabulary.sampleRate) s of audio (16-bit mono, \(vocabulary.sampleRate) Hz)")
            }
        }
    }
}
