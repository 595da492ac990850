import CPrefetch
import Foundation
import Synchronization

/// Helper threads for one simulation run. A day's share of the cards is tens of microseconds
/// of work, less than waking a sleeping thread takes, so the helpers wait by spinning (and
/// yielding the core) for as long as the run lasts, and end with it.
final class DayWorkers: @unchecked Sendable {
    /// Threads taking part, the caller's included.
    let count: Int
    private let generation = Atomic<Int>(0)
    private let pending = Atomic<Int>(0)
    private let running = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// Written by the caller before `generation` moves on, read by the helpers after they see
    /// it move: the atomic's release and acquire order the two.
    private var job: (@Sendable (Int) -> Void)?

    /// Touched only by the caller's thread.
    private var started = false

    /// `count` threads in all: `count − 1` helpers, started when first needed.
    init(count: Int) {
        self.count = max(1, count)
    }

    /// Runs `work(worker)` for worker 0 (on this thread) … count − 1 at once, and returns when
    /// all are done.
    func run(_ work: @escaping @Sendable (Int) -> Void) {
        guard count > 1 else { return work(0) }
        if !started {
            started = true
            for worker in 1..<count {
                running.add(1, ordering: .relaxed)
                let thread = Thread { [self] in helper(worker) }
                thread.stackSize = 1 << 20
                thread.start()
            }
        }
        job = work
        pending.store(count - 1, ordering: .relaxed)
        generation.add(1, ordering: .releasing)
        work(0)
        Self.wait { pending.load(ordering: .acquiring) == 0 }
    }

    /// Ends the helpers; call once, when the run is over.
    func stop() {
        guard started else { return }
        stopping.store(true, ordering: .relaxed)
        generation.add(1, ordering: .releasing)
        Self.wait { running.load(ordering: .acquiring) == 0 }
    }

    private func helper(_ worker: Int) {
        var seen = 0
        while true {
            Self.wait { generation.load(ordering: .acquiring) != seen }
            seen = generation.load(ordering: .acquiring)
            if stopping.load(ordering: .relaxed) { break }
            job?(worker)
            pending.subtract(1, ordering: .releasing)
        }
        running.subtract(1, ordering: .releasing)
    }

    /// Spins until `done`: the waits between a day's parts are a few microseconds. Past about
    /// a tenth of a millisecond it yields the core between looks, and past that it sleeps a
    /// little (a machine busier than its cores).
    private static func wait(until done: () -> Bool) {
        var looks = 0
        while !done() {
            looks += 1
            if looks < 4096 {
                maeil_spin_pause()
            } else if looks < 200_000 {
                sched_yield()
            } else {
                usleep(50)
            }
        }
    }
}
