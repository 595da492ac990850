import Foundation
import Synchronization

/// What a review session does between answers on a thread of its own: rewriting the focus
/// list's files (at a million cards one rewrite reads the whole card table, half a second) and
/// folding the write-ahead log into the file, neither of which the next card may wait for.
/// Requests made while one is under way are folded into one more, at the newest time asked for.
final class SessionUpkeep: Sendable {
    private let queue = DispatchQueue(label: "maeil.session-upkeep", qos: .utility)
    /// The time the next upkeep is for; nil when none is waiting to start.
    private let waiting = Mutex<Date?>(nil)
    private let work: @Sendable (Date) -> Void

    init(_ work: @escaping @Sendable (Date) -> Void) {
        self.work = work
    }

    /// Asks for the upkeep as of `now`; returns at once.
    func request(at now: Date) {
        let queued = waiting.withLock { time in
            defer { time = now }
            return time != nil
        }
        guard !queued else { return }
        queue.async { [self] in
            guard let time = waiting.withLock({ time in defer { time = nil }; return time }) else { return }
            work(time)
        }
    }

    /// Waits until every upkeep asked for is done.
    func finish() {
        queue.sync {}
    }
}
