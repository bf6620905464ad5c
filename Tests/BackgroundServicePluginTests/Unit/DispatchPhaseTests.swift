import Testing

@testable import BackgroundServicePlugin

/// The dispatcher's phase: each event's action and next phase, as the three flags it
/// replaced behaved.
@Suite("DispatchPhase")
struct DispatchPhaseTests {
    @Test func aJobRunsAloneOnlyWhenNothingIsQueuedOrInProgress() {
        #expect(DispatchPhase.idle.jobArrived(queuesEmpty: true) == .runAlone)
        #expect(DispatchPhase.idle.jobArrived(queuesEmpty: false) == .queueAndDrain)
        #expect(DispatchPhase.draining.jobArrived(queuesEmpty: true) == .queueAndDrain)
        #expect(DispatchPhase.readingBatch.jobArrived(queuesEmpty: true) == .queue)
        #expect(DispatchPhase.drainingBatch(mainGranted: false).jobArrived(queuesEmpty: true) == .queue)
    }

    @Test func aDrainInsideABatchReturnsToReadingIt() {
        var phase = DispatchPhase.idle
        phase.beginBatch()
        #expect(phase == .readingBatch && phase.interleaving)
        let restore = phase.beginDrain()
        #expect(restore == .readingBatch)
        #expect(phase == .drainingBatch(mainGranted: false))
        let again = phase.beginDrain()
        #expect(again == nil, "a drain in progress is not started again")
        phase = restore ?? .idle
        phase.endBatch()
        #expect(phase == .idle && !phase.interleaving)
    }

    @Test func aDrainOutsideABatchReturnsToIdle() {
        var phase = DispatchPhase.idle
        let restore = phase.beginDrain()
        #expect(restore == .idle)
        #expect(phase == .draining && !phase.interleaving)
        phase.grantMain(true)
        #expect(phase == .draining, "outside a batch no decision is made, so nothing is granted")
        let taken = phase.takeMainGrant()
        #expect(!taken)
    }

    @Test func theMainGrantIsUsedOnce() {
        var phase = DispatchPhase.drainingBatch(mainGranted: false)
        var taken = [phase.takeMainGrant()]
        phase.grantMain(true)
        taken.append(phase.takeMainGrant())
        taken.append(phase.takeMainGrant())
        #expect(taken == [false, true, false])
        phase.grantMain(true)
        phase.grantMain(false)
        #expect(phase == .drainingBatch(mainGranted: false))
    }

    @Test func aBatchBegunWhileDrainingEndsDraining() {
        var phase = DispatchPhase.draining
        phase.beginBatch()
        #expect(phase == .drainingBatch(mainGranted: false))
        phase.endBatch()
        #expect(phase == .draining)
    }
}
