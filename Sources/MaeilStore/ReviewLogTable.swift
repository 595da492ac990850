import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

/// One review-log row: an entry of a card's history, as stored.
@dynamicMemberLookup
package struct ReviewLog: Hashable, Sendable {
    package var id: Int64
    package var cardID: Int64
    package var deckID: Int64
    package var entry: ReviewLogEntry

    package subscript<Value>(dynamicMember path: KeyPath<ReviewLogEntry, Value>) -> Value { entry[keyPath: path] }
}

/// The review log's one encoder and one decoder.
enum ReviewLogTable {
    /// Every column but the id, in the order `append` binds them.
    static let written = "card_id, deck_id, time, kind, rating, duration_ms, scheduler, leech_action, buried_siblings, anki_id, "
        + CardStateColumns.list(prefix: "b_") + ", " + CardStateColumns.list(prefix: "a_") + ", " + ankiColumns.joined(separator: ", ")
        + ", step_secs"

    /// Anki's own columns of a row that came from Anki (`AnkiRevlogColumns`), NULL otherwise.
    static let ankiColumns = ["anki_ease", "anki_ivl", "anki_last_ivl", "anki_factor", "anki_type"]

    static let columns = "id, " + written

    static let insertSQL = "INSERT INTO review_log (" + written + ") VALUES ("
        + Array(repeating: "?", count: 11 + 2 * CardStateColumns.names.count + ankiColumns.count).joined(separator: ", ") + ")"

    /// Appends `entry` to a card's log; returns the new row's id.
    @discardableResult
    static func append(_ entry: ReviewLogEntry, cardID: Int64, deckID: Int64, _ db: Database, _ binder: inout Binder) throws -> Int64 {
        try append(entry, cardID: cardID, deckID: deckID, with: db.cachedStatement(sql: insertSQL), db, &binder)
    }

    /// The same with `insertSQL` already prepared: an import appends tens of thousands of
    /// entries, and finding the statement by its text each time showed.
    @discardableResult
    static func append(_ entry: ReviewLogEntry, cardID: Int64, deckID: Int64, with statement: Statement, _ db: Database,
                       _ binder: inout Binder) throws -> Int64 {
        binder.begin(statement)
        binder.int(cardID); binder.int(deckID); binder.int(entry.time.unixMilliseconds); binder.int(entry.kind.rawValue)
        binder.int(entry.rating?.rawValue ?? 0); binder.int(entry.durationMilliseconds); binder.text(entry.scheduler)
        binder.text(leechColumn(entry.leech)); binder.text(buriedColumn(entry.buried)); binder.int(entry.ankiID)
        CardStateColumns.bind(entry.before, &binder)
        CardStateColumns.bind(entry.after, &binder)
        let anki = entry.anki
        binder.int(anki?.ease); binder.int(anki?.interval); binder.int(anki?.lastInterval); binder.int(anki?.factor); binder.int(anki?.type)
        binder.int(entry.stepSeconds)
        try binder.step(db)
        return db.lastInsertedRowID
    }

    /// "tagged,suspended", or NULL when the answer did nothing to a leech.
    static func leechColumn(_ effect: LeechEffect) -> String? {
        guard !effect.isEmpty else { return nil }
        let words = [(LeechEffect.tagged, "tagged"), (.suspended, "suspended")].filter { effect.contains($0.0) }.map(\.1)
        return words.isEmpty ? nil : words.joined(separator: ",")
    }

    /// "card:previous burial" pairs ("12:" when it had none), or NULL.
    static func buriedColumn(_ buried: [SiblingBurial]) -> String? {
        buried.isEmpty ? nil : buried.map { "\($0.cardID):\($0.previous.map { String($0.unixSeconds) } ?? "")" }.joined(separator: ",")
    }

    /// The names a log row's scheduler column holds.
    static let schedulers = SchedulerKind.allCases.map(\.rawValue) + ["anki", "manual", "check", ReviewLogEntry.setDueDate, ReviewLogEntry.forget]

    /// Decodes rows selected with `columns`.
    struct Decoder {
        let before: CardStateColumns, after: CardStateColumns
        let id, cardID, deckID, time, kind, rating, duration, scheduler, leech, buried, ankiID, stepSeconds: Int
        let anki: [Int]

        func cardID(_ row: SQLiteRow) -> Int64 { row.int64(cardID) }

        init(_ columns: ColumnMap) {
            before = CardStateColumns(columns, prefix: "b_")
            after = CardStateColumns(columns, prefix: "a_")
            (id, cardID, deckID, time, kind) = (columns["id"], columns["card_id"], columns["deck_id"], columns["time"], columns["kind"])
            (rating, duration, scheduler) = (columns["rating"], columns["duration_ms"], columns["scheduler"])
            (leech, buried, ankiID) = (columns["leech_action"], columns["buried_siblings"], columns["anki_id"])
            anki = ReviewLogTable.ankiColumns.map { columns[$0] }
            stepSeconds = columns["step_secs"]
        }

        func decode(_ row: SQLiteRow) -> ReviewLog {
            ReviewLog(id: row.int64(id), cardID: row.int64(cardID), deckID: row.int64(deckID), entry: entry(row))
        }

        func entry(_ row: SQLiteRow) -> ReviewLogEntry {
            var effect: LeechEffect = []
            if let words = row.optionalText(leech) {
                let leechWords = Set(words.split(separator: ","))
                if leechWords.contains("tagged") { effect.insert(.tagged) }
                if leechWords.contains("suspended") { effect.insert(.suspended) }
            }
            let burials = row.isNull(buried) ? [] : row.text(buried).split(separator: ",").compactMap { pair -> SiblingBurial? in
                let parts = pair.split(separator: ":", omittingEmptySubsequences: false)
                guard let card = Int64(parts[0]) else { return nil }
                return SiblingBurial(cardID: card, previous: parts.count > 1 ? Int64(parts[1]).map(Date.init(unixSeconds:)) : nil)
            }
            return ReviewLogEntry(
                time: Date(timeIntervalSince1970: TimeInterval(row.int64(time)) / 1000),
                kind: ReviewLogEntry.Kind(rawValue: row.int(kind)) ?? .manual, rating: Rating(rawValue: row.int(rating)),
                durationMilliseconds: row.int(duration), scheduler: row.text(scheduler, among: ReviewLogTable.schedulers),
                before: before.decode(row), after: after.decode(row),
                leech: effect, buried: burials, ankiID: row.optionalInt64(ankiID),
                anki: row.isNull(anki[0]) ? nil : AnkiRevlogColumns(ease: row.int64(anki[0]), interval: row.int64(anki[1]),
                                                                     lastInterval: row.int64(anki[2]), factor: row.int64(anki[3]), type: row.int64(anki[4])),
                stepSeconds: row.isNull(stepSeconds) ? nil : row.int(stepSeconds))
        }
    }
}
