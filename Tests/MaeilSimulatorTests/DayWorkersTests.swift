import Foundation
import Synchronization
import Testing
@testable import MaeilSimulator

/// The helper threads and the choice to share a day with them: however the parts are taken,
/// each is done once a day; the engine stops sharing when a thread waits for a core.
@Suite("Sharing days among threads")
struct DayWorkersTests {
    @Test func everyPartIsDoneOnceADay() {
        let workers = DayWorkers(count: 3)
        defer { workers.stop() }
        let done = Mutex<[Int]>(Array(repeating: 0, count: 16))
        for day in 0..<3000 {
            let parts = 1 + day % 16
            done.withLock { $0 = Array(repeating: 0, count: 16) }
            workers.run(parts: parts) { worker, part in
                precondition((0..<3).contains(worker))
                done.withLock { $0[part] += 1 }
            }
            let counts = done.withLock { $0 }
            #expect(counts.prefix(parts).allSatisfy { $0 == 1 } && counts.dropFirst(parts).allSatisfy { $0 == 0 }, "day \(day): \(counts)")
        }
    }

    /// Fed CPU times: a helper that had half the time that passed was waiting for a core.
    @Test func aThreadShortOfCPUSendsTheDaysAlone() {
        func days(_ sharing: inout CoreSharing, _ count: Int, helperShare: Double, clock: inout (now: UInt64, cpu: [Double])) -> [Bool] {
            (0..<count).map { _ in
                clock.now += 50_000  // 50 µs a day
                clock.cpu[0] += 50e-6
                clock.cpu[1] += 50e-6 * helperShare
                let current = clock.cpu
                return sharing.shares(cards: 1000, now: clock.now, cpu: { current })
            }
        }
        var clock: (now: UInt64, cpu: [Double]) = (1_000_000, [0, 0])
        var quiet = CoreSharing(threads: 2)
        #expect(days(&quiet, 400, helperShare: 1, clock: &clock).allSatisfy { $0 })
        var busy = CoreSharing(threads: 2)
        let shared = days(&busy, 365, helperShare: 0.5, clock: &clock)
        // Four shared days let go by, seven watched; the eighth decides, and begins 64 more alone.
        #expect(shared.prefix(11).allSatisfy { $0 } && shared[11..<76].allSatisfy { !$0 }, "\(shared.prefix(80))")
        #expect(shared.filter { $0 }.count == 22, "one look back after them, then alone: \(shared.filter { $0 }.count)")
        var small = CoreSharing(threads: 2), alone = CoreSharing(threads: 1)
        let smallDay = small.shares(cards: 10, cpu: { [0, 0] }), oneThread = alone.shares(cards: 1000, cpu: { [0] })
        #expect(!smallDay && !oneThread, "a small day is not worth sharing; one thread has no one to share with")
        var stalled = CoreSharing(threads: 2)
        stalled.stalled()
        #expect(days(&stalled, 64, helperShare: 1, clock: &clock).allSatisfy { !$0 })
    }
}
