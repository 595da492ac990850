import CPrefetch
import Foundation
import Synchronization

/// Helper threads for one simulation run. A day's share of the cards is tens of microseconds
/// of work, less than waking a sleeping thread takes, so between days the helpers spin (and
/// yield the core) for a little while; when no day comes (the engine studies alone on a busy
/// machine) they sleep until one does, taking no core from anyone. They end with the run.
///
/// Each thread first takes its own parts of a day (worker w: parts w, w + count, …: the same
/// cards every day, still in its core's cache), then any another thread has not taken yet: a
/// helper whose core another process holds takes none, and the caller does them itself. What
/// the caller cannot do is take back a part a helper began and was then stopped in by the
/// system; `run` says when it waited for one, and the engine then goes on alone for a while.
final class DayWorkers: @unchecked Sendable {
    /// Threads taking part, the caller's included.
    let count: Int
    /// Each worker's own parts of the day: the day's generation (bits 32–63), how many parts
    /// the worker owns (16–31) and the next of them to take (0–15). One atomic each, so that a
    /// part taken is always a part of the day it was taken in, and its job the one published
    /// with it.
    private final class Share: Sendable { let claims = Atomic<UInt64>(0) }
    private let shares: [Share]
    /// The day's generation, which the helpers wait on.
    private let day = Atomic<UInt64>(0)
    private let finished = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// Helpers asleep until the next day, and what wakes them.
    private let parked = Atomic<Int>(0)
    private let wakeUp = DispatchSemaphore(value: 0)
    /// Each helper's CPU-time clock, as it starts; the seconds it has slept waiting for a day,
    /// and since when it sleeps now.
    private let clocks = Mutex<[(clock: clockid_t, asleep: Double, since: UInt64?)]>([])
    /// Written by the caller before the shares move to a new generation, read by the helpers
    /// after they take a part of it: the atomics' release and acquire order the two, and the
    /// caller changes it only once every part of the day is finished.
    private var job: (@Sendable (_ worker: Int, _ part: Int) -> Void)?

    /// Touched only by the caller's thread.
    private var started = false
    private var generation: UInt64 = 0

    /// A wait for a helper's part longer than this is a helper the system stopped.
    static let stallNanoseconds: UInt64 = 100_000

    /// `count` threads in all: `count − 1` helpers, started when first needed.
    init(count: Int) {
        self.count = max(1, count)
        shares = (0..<self.count).map { _ in Share() }
    }

    /// Runs `work(worker, part)` for parts 0 ..< `parts`, each once, shared among the threads
    /// as they come, and returns when all are done: whether the caller waited longer than
    /// `stallNanoseconds` for a helper's part.
    @discardableResult
    func run(parts: Int, _ work: @escaping @Sendable (_ worker: Int, _ part: Int) -> Void) -> Bool {
        guard count > 1 else {
            for part in 0..<parts { work(0, part) }
            return false
        }
        if !started {
            started = true
            for worker in 1..<count {
                let thread = Thread { [self] in helper(worker) }
                thread.stackSize = 1 << 20
                thread.start()
            }
        }
        precondition(parts < 1 << 16)
        job = work
        finished.store(0, ordering: .relaxed)
        generation += 1
        for worker in 0..<count {
            let owned = worker < parts ? (parts - worker + count - 1) / count : 0
            shares[worker].claims.store(generation << 32 | UInt64(owned) << 16, ordering: .releasing)
        }
        day.store(generation, ordering: .releasing)
        wakeParked()
        take(as: 0)
        guard finished.load(ordering: .acquiring) < parts else { return false }
        let waiting = DispatchTime.now().uptimeNanoseconds
        Self.wait { finished.load(ordering: .acquiring) == parts }
        return DispatchTime.now().uptimeNanoseconds - waiting > Self.stallNanoseconds
    }

    /// Ends the helpers; call once, when the run is over. It does not wait for them to go: on
    /// a busy machine a woken helper may not run for a time slice. Each keeps this object, all
    /// it touches from now on, alive until it has gone.
    func stop() {
        guard started else { return }
        stopping.store(true, ordering: .releasing)
        day.store(generation + 1, ordering: .releasing)
        wakeParked()
    }

    /// Takes the worker's own parts of the current day, then the others' that are left. Its
    /// own share's atomic stays in its core's cache; what it did is counted once, at the end,
    /// as the count is the one line every thread writes.
    private func take(as worker: Int) {
        var done = 0
        for offset in 0..<count {
            let owner = (worker + offset) % count
            while true {
                let claim = shares[owner].claims.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
                let next = Int(claim & 0xFFFF), owned = Int(claim >> 16 & 0xFFFF)
                guard next < owned else { break }
                job?(worker, owner + next * count)
                done += 1
            }
        }
        if done > 0 { finished.add(done, ordering: .releasing) }
    }

    private func helper(_ worker: Int) {
        var clock = clockid_t()
        let slot = pthread_getcpuclockid(pthread_self(), &clock) == 0 ? clocks.withLock { $0.append((clock, 0, nil)); return $0.count - 1 } : nil
        var seen: UInt64 = 0
        while true {
            let newDay = { self.day.load(ordering: .acquiring) != seen }
            if !Self.wait(until: newDay, giveUpAfter: 4096 + 256) {
                // Asleep until woken. Counted before the last look, so that a day published
                // after it finds this helper counted and wakes it; one published before it is
                // seen here. A wake-up left over from then only makes a later look come early.
                parked.add(1, ordering: .sequentiallyConsistent)
                if !newDay() {
                    if let slot { clocks.withLock { $0[slot].since = DispatchTime.now().uptimeNanoseconds } }
                    wakeUp.wait()
                    if let slot {
                        let now = DispatchTime.now().uptimeNanoseconds
                        clocks.withLock { $0[slot].asleep += Double(now - ($0[slot].since ?? now)) / 1e9; $0[slot].since = nil }
                    }
                }
                continue
            }
            if stopping.load(ordering: .acquiring) { break }
            seen = day.load(ordering: .acquiring)
            take(as: worker)
        }
    }

    /// The seconds each thread has had a core or slept by choice (waiting for a day), the
    /// caller's first: a thread that had less than the time that passed waited for a core.
    func cpuSeconds() -> [Double] {
        func seconds(_ clock: clockid_t) -> Double {
            var time = timespec()
            return clock_gettime(clock, &time) == 0 ? Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 : 0
        }
        let now = DispatchTime.now().uptimeNanoseconds
        let helpers = clocks.withLock { $0 }.map { helper -> Double in
            let sleeping: Double = helper.since.map { Double(now - min($0, now)) / 1e9 } ?? 0
            return seconds(helper.clock) + helper.asleep + sleeping
        }
        return [seconds(CLOCK_THREAD_CPUTIME_ID)] + helpers
    }

    private func wakeParked() {
        let sleeping = parked.exchange(0, ordering: .sequentiallyConsistent)
        for _ in 0..<sleeping { wakeUp.signal() }
    }

    /// Spins until `done`: the waits between a day's parts are a few microseconds. Past about
    /// a tenth of a millisecond it yields the core between looks; after `giveUpAfter` looks it
    /// returns false (the caller of `run` never gives up: it waits for parts under way).
    @discardableResult
    private static func wait(until done: () -> Bool, giveUpAfter limit: Int = .max) -> Bool {
        var looks = 0
        while !done() {
            looks += 1
            if looks >= limit { return false }
            if looks < 4096 {
                maeil_spin_pause()
            } else {
                sched_yield()
            }
        }
        return true
    }
}
