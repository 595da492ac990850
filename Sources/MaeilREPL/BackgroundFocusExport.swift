import Foundation
import Synchronization

/// The focus list's files rewritten during a review session on a thread of their own: at a
/// million cards one rewrite reads the whole card table (half a second), which the prompt
/// must not wait for between two cards. Requests made while one is under way are folded into
/// one more, at the newest time asked for.
final class BackgroundFocusExport: Sendable {
    private let queue = DispatchQueue(label: "maeil.focus-export", qos: .utility)
    /// The time the next rewrite is for; nil when none is waiting to start.
    private let waiting = Mutex<Date?>(nil)
    private let export: @Sendable (Date) -> Void

    init(_ export: @escaping @Sendable (Date) -> Void) {
        self.export = export
    }

    /// Asks for a rewrite as of `now`; returns at once.
    func request(at now: Date) {
        let queued = waiting.withLock { time in
            defer { time = now }
            return time != nil
        }
        guard !queued else { return }
        queue.async { [self] in
            guard let time = waiting.withLock({ time in defer { time = nil }; return time }) else { return }
            export(time)
        }
    }

    /// Waits until every rewrite asked for is written.
    func finish() {
        queue.sync {}
    }
}
