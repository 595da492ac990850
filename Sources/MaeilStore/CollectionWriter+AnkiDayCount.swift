import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

extension CollectionWriter {
    /// Today's answers in `deck` as the queue counts them from `since`.
    package func answeredSince(deck: Int64, since: Date) throws -> AnsweredToday {
        try QueueRows(db: db).answeredSince(deck: deck, since: since)
    }

    /// The answers in `deck` from `since` that the server held before this sync, counted as the
    /// queue counts them: those given in Anki, and those given here that came back with Anki's
    /// id (sent at an earlier sync, with their deck's counts). Those given here since the last
    /// sync, on their way up now, have none yet.
    package func serverAnsweredSince(deck: Int64, since: Date) throws -> (new: Int, reviews: Int) {
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT total(CASE kind WHEN 2 THEN anki_type = 0 AND anki_last_ivl = 0 ELSE b_phase = 'new' END) AS new,
                   total(CASE kind WHEN 2 THEN anki_type = 1 ELSE b_phase = 'review' END) AS reviews
            FROM review_log WHERE deck_id = ? AND time >= ? AND (kind = 2 AND anki_type IS NOT NULL OR kind = 0 AND anki_id IS NOT NULL)
            """), arguments: [deck, since.unixMilliseconds])
        return row.map { (Int($0["new"] as Double), Int($0["reviews"] as Double)) } ?? (0, 0)
    }

    /// The answers given here in `deck` from `since` that have not gone to the server yet
    /// (`Collection.unsentAnsweredSince`).
    package func unsentAnsweredSince(deck: Int64, since: Date) throws -> (new: Int, reviews: Int) {
        try Collection.unsentAnsweredSince(db, deck: deck, since: since)
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
