import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore

/// Anki's count of a deck's answers today, kept beside the log where it differs: the queue
/// counts the log and what Anki counted beyond it, or short of it (`AnkiAnsweredToday`).
enum AnkiDayCount {
    /// Keeps what Anki counted in `deck` beyond what the log counts now, and what it counted
    /// short of its own log: a count taken again (the collection came again the same day)
    /// replaces the one before.
    ///
    /// Beyond: never less than the log. A count of Anki's may hold fewer answers than the log
    /// for reasons that are no answer taken back (a package older than the answers given here
    /// since, a deck taken from the server that never counted the answers on their way up from
    /// here, a phone's deck taken over the desktop's), and only the answers the log cannot
    /// place (a card deleted since; one moved since, in the deck it was in then) are what Anki
    /// counted beyond it.
    ///
    /// Short: where the file's counters were kept with its log (`AnkiAnsweredToday.logged`),
    /// a count below that log is Anki's custom study lifting the day's limit, or an answer in
    /// the deck of a card moved since, which Anki counts in the deck it was in then (beyond
    /// there): the deck counts as few here.
    static func keep(_ answered: AnkiAnsweredToday, deck: Int64, writer: CollectionWriter) throws {
        try writer.setAnkiDayCount(deck: deck, dayStart: nil)
        let dayStart = answered.clock.start(ofDay: answered.day)
        let logged = try writer.answeredSince(deck: deck, since: dayStart)
        let counted = logged.counted(clock: answered.clock)
        // Without the file's own log, no count short of it is taken.
        let own = answered.logged ?? .init(new: answered.new, reviews: answered.reviews)
        let differs = (new: max(0, answered.new - counted.new) + min(0, answered.new - own.new),
                       reviews: max(0, answered.reviews - counted.reviews) + min(0, answered.reviews - own.reviews),
                       milliseconds: max(0, answered.milliseconds - logged.milliseconds))
        guard differs != (0, 0, 0) else { return }
        try writer.setAnkiDayCount(deck: deck, dayStart: dayStart, new: differs.new, reviews: differs.reviews, milliseconds: differs.milliseconds)
    }
}
