import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore

/// Anki's count of a deck's answers today, kept beside the log as far as the two differ: the
/// queue counts the log and the difference, and so counts as Anki does (`AnkiAnsweredToday`).
enum AnkiDayCount {
    /// Keeps what Anki counted in `deck` beyond what the log counts now: a count taken again
    /// (the collection came again the same day) replaces the one before.
    static func keep(_ answered: AnkiAnsweredToday, deck: Int64, writer: CollectionWriter) throws {
        try writer.setAnkiDayCount(deck: deck, dayStart: nil)
        let dayStart = answered.clock.start(ofDay: answered.day)
        let logged = try writer.answeredSince(deck: deck, since: dayStart)
        let counted = logged.counted(clock: answered.clock)
        let beyond = (new: answered.new - counted.new, reviews: answered.reviews - counted.reviews,
                      milliseconds: answered.milliseconds - logged.milliseconds)
        guard beyond != (0, 0, 0) else { return }
        try writer.setAnkiDayCount(deck: deck, dayStart: dayStart, new: beyond.new, reviews: beyond.reviews, milliseconds: beyond.milliseconds)
    }
}
