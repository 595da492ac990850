import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore

/// Anki's count of a deck's answers today, kept beside the log where it is the greater: the
/// queue counts the log and what Anki counted beyond it (`AnkiAnsweredToday`).
enum AnkiDayCount {
    /// Keeps what Anki counted in `deck` beyond what the log counts now: a count taken again
    /// (the collection came again the same day) replaces the one before. Never less than the
    /// log: a count of Anki's may hold fewer answers than the log for reasons that are no
    /// answer taken back (a package older than the answers given here since, a sync that sends
    /// no deck for its counts alone, a phone's deck taken over the desktop's), and only the
    /// answers the log cannot place (a card deleted since; one moved since, in the deck it was
    /// in then) are what Anki counted beyond it. Custom study's larger limit for the day, which
    /// Anki keeps as a count below the answers, is so not taken.
    static func keep(_ answered: AnkiAnsweredToday, deck: Int64, writer: CollectionWriter) throws {
        try writer.setAnkiDayCount(deck: deck, dayStart: nil)
        let dayStart = answered.clock.start(ofDay: answered.day)
        let logged = try writer.answeredSince(deck: deck, since: dayStart)
        let counted = logged.counted(clock: answered.clock)
        let beyond = (new: max(0, answered.new - counted.new), reviews: max(0, answered.reviews - counted.reviews),
                      milliseconds: max(0, answered.milliseconds - logged.milliseconds))
        guard beyond != (0, 0, 0) else { return }
        try writer.setAnkiDayCount(deck: deck, dayStart: dayStart, new: beyond.new, reviews: beyond.reviews, milliseconds: beyond.milliseconds)
    }
}
