import Foundation

/// Whether a day's cards are shared among the helper threads or studied on the caller's alone.
/// Helpers only pay where each has a core of its own: beside other busy processes they take
/// turns with them, and the days wait on whichever thread the system stopped. So the engine
/// watches the CPU time its threads get over a window of shared days: when one had less than
/// 80 % of the time that passed, it waited for a core, and the engine goes alone for a while
/// (64 days, eight times as long each time it finds the machine still busy: a run lasts a
/// fraction of a second, and the machine it starts on is mostly the one it ends on), then
/// shares again to see. Each time it starts sharing, the first days are not watched: a helper
/// just made or woken may wait for its core to wake up too (a virtual machine's idle core can
/// take a few hundred microseconds), which says nothing about other processes. A helper found
/// stopped in the middle of its part (a stall costs up to a scheduler time slice, more than a
/// day's work) sends it alone at once.
struct CoreSharing {
    /// Shared days let go by, then watched before deciding, after starting to share; then
    /// watched while it goes on sharing.
    static let warmUp = 4, firstWindow = 8, window = 32
    static let enoughCPU = 0.8

    let threads: Int
    private var daysAlone = 0
    private var backoff = 64
    private var warmUpLeft = CoreSharing.warmUp
    private var windowLeft = CoreSharing.firstWindow
    private var windowStart: (wall: UInt64, cpu: [Double])?

    init(threads: Int) {
        self.threads = threads
    }

    /// Whether to share a day of `cards` admitted cards, at `now` (nanoseconds); `cpu` gives
    /// the seconds each thread has had (`DayWorkers.cpuSeconds`).
    mutating func shares(cards: Int, now: UInt64 = DispatchTime.now().uptimeNanoseconds, cpu: () -> [Double]) -> Bool {
        guard threads > 1, cards >= 2 * Engine.cardsPerWorker else { return false }
        if daysAlone > 0 {
            daysAlone -= 1
            return false
        }
        if warmUpLeft > 0 {
            warmUpLeft -= 1
            return true
        }
        if windowStart == nil {
            let start = cpu()
            guard start.count == threads else { return true }  // a helper not running yet
            windowStart = (now, start)
        }
        windowLeft -= 1
        if windowLeft == 0, let start = windowStart {
            let wall = Double(now - start.wall) / 1e9
            let least = zip(cpu(), start.cpu).map { $0 - $1 }.min() ?? wall
            windowStart = nil
            guard least >= Self.enoughCPU * wall else {
                goAlone()
                return false
            }
            backoff = 64
            windowLeft = Self.window
        }
        return true
    }

    mutating func stalled() {
        goAlone()
        windowStart = nil
    }

    private mutating func goAlone() {
        daysAlone = backoff
        backoff = min(backoff * 8, 1 << 20)
        warmUpLeft = Self.warmUp
        windowLeft = Self.firstWindow
    }
}
