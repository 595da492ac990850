import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

extension CollectionWriter {
    /// Today's answers in `deck` as the queue counts them from `since`.
    package func answeredSince(deck: Int64, since: Date) throws -> AnsweredToday {
        try QueueRows(db: db).answeredSince(deck: deck, since: since)
    }

    /// The answers given in Anki in `deck` from `since` that the log holds (`QueueRows.ankiAnsweredSince`).
    package func ankiAnsweredSince(deck: Int64, since: Date) throws -> (new: Int, reviews: Int) {
        let answered = try QueueRows(db: db).ankiAnsweredSince(deck: deck, since: since)
        return (answered.new, answered.reviews)
    }

    /// Keeps what Anki counted in `deck` on the day from `dayStart` beyond (or short of) what the log counts
    /// (nil: nothing, and `answeredSince` is the log's count alone).
    package func setAnkiDayCount(deck: Int64, dayStart: Date?, new: Int = 0, reviews: Int = 0, milliseconds: Int = 0) throws {
        guard let dayStart else {
            try db.execute(sql: "DELETE FROM anki_day_count WHERE deck_id = ?", arguments: [deck])
            return
        }
        try db.execute(sql: "INSERT OR REPLACE INTO anki_day_count (deck_id, day_start, new, reviews, milliseconds) VALUES (?, ?, ?, ?, ?)",
                       arguments: [deck, dayStart.unixMilliseconds, new, reviews, milliseconds])
    }
}
