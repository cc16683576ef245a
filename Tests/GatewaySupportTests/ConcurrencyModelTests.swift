import Testing
@testable import GatewaySupport

/// The pieces of the one concurrency model (issue 39; README, "One concurrency model"): the lock
/// whose condition every waiting thread waits on instead of polling, the bounded hand-off built on
/// it, and errors by kind that still read as the sentences users saw.
@Suite(.timeLimit(.minutes(5))) struct ConcurrencyModelTests {
    /// A wait with a time limit returns false when nothing changes, and true as soon as another
    /// thread changes the value and wakes it (long before its limit).
    @Test func lockedWaitTimesOutOrIsWoken() {
        let flag = Locked(false)
        let began = DedicatedThread.monotonicSeconds
        #expect(flag.wait(until: { $0 }, timeout: 0.05) == false)
        #expect(DedicatedThread.monotonicSeconds - began >= 0.05)
        DedicatedThread.start { flag.setWaking(true) }
        #expect(flag.wait(until: { $0 }, timeout: 30) == true)
        // Already true: no wait at all, and the body sees the value under the lock.
        #expect(flag.withLock(when: { $0 }, timeout: 0) { value, ready in value && ready })
    }

    /// The producer waits for room once `depth` batches wait, and goes on when the consumer gives
    /// one back; the consumer sees the batches in order, then the end, and the end again.
    @Test func handOffHoldsAtMostDepthBatches() {
        let handOff = HandOff<Int>(depth: 2)
        let put = Locked(0)
        DedicatedThread.start {
            for i in 0..<3 {
                _ = handOff.put([i])
                put.withLockWaking { $0 += 1 }
            }
            handOff.close()
        }
        #expect(put.wait(until: { $0 == 2 }, timeout: 30))
        // The third batch waits for room: no `recycle` yet.
        #expect(put.wait(until: { $0 == 3 }, timeout: 0.2) == false)
        let first = handOff.take()
        #expect(first == [0])
        handOff.recycle(first!)
        #expect(put.wait(until: { $0 == 3 }, timeout: 30))
        #expect(handOff.take() == [1])
        #expect(handOff.take() == [2])
        #expect(handOff.take() == nil)
        #expect(handOff.take() == nil)
    }

    /// Each kind of error reads as one sentence naming what and where, as the `invalidInput`
    /// strings it replaced did.
    @Test func errorsByKindReadAsBefore() {
        #expect(GatewayError.unreadable(what: "NOTAM file", path: "/x/n.json").description
                == "cannot read NOTAM file /x/n.json: no such file or not readable")
        #expect(GatewayError.content(place: "a.geojson feature 2", reason: "no geometry").description == "a.geojson feature 2: no geometry")
        #expect(GatewayError.setting(name: "--speed", message: "--speed 0: give a pace such as 1 (real time) or 10").description
                == "--speed 0: give a pace such as 1 (real time) or 10")
        #expect(GatewayError.notKeepingUp(what: "the alert log", lost: "3 batch(es) of alerts not logged").description
                == "the alert log is not keeping up (3 batch(es) of alerts not logged so far)")
        #expect(GatewayError.upstream(source: "the FAA NOTAM API", reason: "returned no NOTAMs: kept the 4 stored ones").description
                == "the FAA NOTAM API returned no NOTAMs: kept the 4 stored ones")
        #expect(GatewayError.subprocess(name: "gatewayd decode", status: 2).description == "gatewayd decode exited with status 2")
        #expect(GatewayError.notKeepingUp(what: "the logbook", lost: "1 batch(es) of samples not kept").reason
                == "not keeping up (1 batch(es) of samples not kept so far)")
    }
}
