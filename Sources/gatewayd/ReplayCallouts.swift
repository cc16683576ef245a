import ArgumentParser
import TrafficGateway

extension ReplayCommand {
    /// `replay --callouts [--wav OUT]`: the callout timeline of the captures, printed as it is
    /// decided, and their audio written when asked.
    func replayCallouts(areas: [AirspaceArea], recorded: [RecordedEvent], fixes: [TimedGPSFix]) throws {
        let config = (try? GatewayConfig.load(path: GatewayConfig.defaultPath, required: false)) ?? GatewayConfig()
        // The spoken lengths pace the callouts: the rendered vocabulary's, as the voice has them.
        let vocabulary: CalloutVocabulary?
        do { vocabulary = try CalloutVocabulary(parameters: config.voiceSettings.speech) } catch {
            if wav != nil { throw CommandFailure("\(error)") }
            Terminal.error("note: \(error); callouts are paced by estimated lengths")
            vocabulary = nil
        }
        var timeline = CalloutTimeline(settings: config.voiceSettings.callouts, durations: vocabulary?.durations ?? .estimated)
        for path in files {
            var capture = try openCapture(path, port: port)
            let day = try rawCaptureDate(date, capture)
            if let note = day.note { Terminal.error("note: " + note) }
            var replay = CaptureReplay(pipeline: GatewayPipeline(timeSource: capture.format == .raw ? .heartbeat(midnight: day.midnight) : .given),
                                       gpsFixes: fixes, events: recorded)
            let pace = Pacer(speed: speed)
            var probe = replay
            let json = self.json
            timeline.replay(&replay, areas: areas, next: {
                guard let d = capture.next() else { return nil }
                if pace.isPaced, let t = probe.eventTime(of: d) { pace.wait(until: t) }
                return d
            }, emit: { Terminal.out($0.map { json ? $0.json : $0.line }) })
            if let damage = capture.error { Terminal.error("warning: \(damage)") }
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
