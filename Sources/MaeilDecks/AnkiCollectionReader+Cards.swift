import Foundation
import GRDB
import GRDBSQLite
import MaeilCore
import MaeilPrograms
import MaeilSQLite

/// A package's cards and review log: the order notes come over, each card's state from
/// Anki's columns and data, each log row as an entry.
extension CollectionReading {
    /// The notes' ids in the order they come over: new cards keep Anki's order (a new card in
    /// a filtered deck keeps its place in the new queue in odue), and a note whose cards all
    /// left the new queue takes the place they left ("pos" in their data), so a card forgotten
    /// later goes back among the new cards where Anki puts it back; notes with neither keep
    /// their creation order.
    func noteOrder(only: Set<Int64>?) throws -> [Int64] {
        var firstNew: [Int64: Int64] = [:]
        // A part of the file (a sync's notes) reads only its own notes' rows.
        let arguments: StatementArguments = try only.map { [String(decoding: try JSONSerialization.data(withJSONObject: Array($0)), as: UTF8.self)] } ?? []
        let (ofCards, ofNotes) = only == nil ? ("", "") : ("WHERE nid IN (SELECT value FROM json_each(?))", " WHERE id IN (SELECT value FROM json_each(?))")
        let placed = """
            SELECT nid, place FROM (
              SELECT nid, coalesce(min(CASE WHEN type = 0 THEN (CASE WHEN odid != 0 THEN odue ELSE due END) END),
                                   min(CASE WHEN type != 0 AND data LIKE '%"pos"%' AND json_valid(data) THEN json_extract(data, '$.pos') END)) AS place
              FROM cards \(ofCards) GROUP BY nid)
            WHERE typeof(place) = 'integer'
            """
        let straight = try StraightRows.read(db, sql: placed, arguments: arguments, types: [SQLITE_INTEGER, SQLITE_INTEGER]) {
            firstNew[$0.int64(0)] = $0.int64(1)
        }
        if !straight {
            firstNew = [:]
            let positions = try Row.fetchCursor(db, sql: placed, arguments: arguments)
            while let row = try positions.next() {
                let pair = PackageRow(row: row, table: "cards", file: file)
                firstNew[try pair.value(0)] = try pair.value(1)
            }
        }
        var order: [(firstNew: Int64, id: Int64)] = []
        let notes = "SELECT id FROM notes" + ofNotes
        if !(try StraightRows.read(db, sql: notes, arguments: arguments, types: [SQLITE_INTEGER]) { order.append((firstNew[$0.int64(0)] ?? .max, $0.int64(0))) }) {
            order = []
            let ids = try Row.fetchCursor(db, sql: notes, arguments: arguments)
            while let row = try ids.next() {
                let id: Int64 = try PackageRow(row: row, table: "notes", file: file).value(0)
                order.append((firstNew[id] ?? .max, id))
            }
        }
        order.sort { ($0.firstNew, $0.id) < ($1.firstNew, $1.id) }
        return order.map(\.id)
    }

    /// The answers whose card is not in the file, by card, a few hundred cards at a time.
    func emitGoneCards(_ emit: ImportEmitter, only: Set<Int64>? = nil) throws {
        // Anki's ids are integers: written into the statement as they are.
        let among = only.map { " AND cid IN (\($0.map(String.init).joined(separator: ",")))" } ?? ""
        let rows = try Row.fetchCursor(db, sql: """
            SELECT \(RevlogRow.columns) FROM revlog WHERE cid NOT IN (SELECT id FROM cards)\(among) ORDER BY cid, id
            """)
        var gone: [GoneCardDraft] = []
        while let row = try rows.next() {
            let review = try RevlogRow(PackageRow(row: row, table: "revlog", file: file))
            if gone.last?.ankiID != review.card {
                if gone.count == NoteBatch.size {
                    try emit(.goneCards(gone))
                    gone.removeAll(keepingCapacity: true)
                }
                gone.append(GoneCardDraft(ankiID: review.card, history: []))
            }
            gone[gone.count - 1].history.append(entry(review))
        }
        if !gone.isEmpty { try emit(.goneCards(gone)) }
    }

    /// One row of the review log as a log entry that keeps Anki's columns as they were: an
    /// answer also as Maeil reads it (the rating, the phase, the interval and ease before and
    /// after); a reset, a set due date or a filtered deck's rescheduling as a row that is no answer.
    func entry(_ review: RevlogRow) -> ReviewLogEntry {
        let type = review.type
        let columns = AnkiRevlogColumns(ease: review.ease, interval: review.interval, lastInterval: review.lastInterval,
                                        factor: review.factor, type: type)
        let duration = Int(review.milliseconds.clamped(to: 0...86_400_000))
        guard let rating = Rating(rawValue: Int(clamping: review.ease)), type >= 0, type <= 3 else {
            return ReviewLogEntry(
                time: packageDate(Double(review.id) / 1000), kind: .imported, rating: nil, durationMilliseconds: duration, scheduler: "anki",
                before: nil, after: columns.isReset ? .new : nil, ankiID: review.id, anki: columns)
        }
        let before: CardPhase = type == 0 ? .learning : (type == 2 ? .relearning : .review)
        let after: CardPhase = review.interval > 0 ? .review : (before == .review ? .relearning : before)
        let time = packageDate(Double(review.id) / 1000)
        let ease = review.factor > 0 ? Int(review.factor.clamped(to: 1300...10_000)) : 2500
        return ReviewLogEntry(
            time: time, kind: .imported, rating: rating, durationMilliseconds: duration,
            scheduler: "anki",
            before: CardState(phase: before, intervalDays: Int(review.lastInterval.clamped(to: 0...36_500)), easePermille: ease),
            // Anki logs a step's delay as negative seconds, an interval as positive days.
            after: CardState(phase: after, scheduledSeconds: -Int(review.interval.clamped(to: -(36_500 * 86_400)...0)),
                             intervalDays: Int(review.interval.clamped(to: 0...36_500)), easePermille: ease, lastReview: time),
            ankiID: review.id, anki: columns)
    }

    /// The custom data Anki keeps in a card's data ("cd": a JSON object as text, which Anki
    /// limits to 100 bytes), as it came; nil when there is none, or when it is not such text or
    /// is over `AnkiPackage.customDataLimit`.
    static func customData(_ data: [String: Any]?) -> String? {
        guard let custom = data?["cd"] as? String, !custom.isEmpty, custom.utf8.count <= AnkiPackage.customDataLimit,
              (try? JSONSerialization.jsonObject(with: Data(custom.utf8))) is [String: Any] else { return nil }
        return custom
    }

    /// The new-queue position Anki keeps for a card that left it ("pos" in its data).
    static func originalPosition(_ data: [String: Any]?) -> Int64? {
        guard let position = (data?["pos"] as? NSNumber)?.int64Value, (0...Int64(Int32.max)).contains(position) else { return nil }
        return position
    }

    /// A card's data (FSRS's memory, the last review's time, the original position, custom
    /// data) as one JSON object, read once for all of them. Most cards hold "" or "{}": parsing
    /// JSON for them cost more than the rest of the card.
    static func dataObject(_ data: String) -> [String: Any]? {
        data.utf8.count > 2 ? (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] : nil
    }

    /// An Anki card's scheduling as a Maeil state. Review due dates are day numbers counted
    /// from the collection's creation date (`AnkiDays`); learning due times are epoch seconds;
    /// a card in a filtered deck keeps its original due in odue.
    func state(_ card: CardRow, data: [String: Any]?, days: AnkiDays, steps: AnkiPackage.DeckOptions,
               reviews: [ReviewLogEntry]) -> CardState {
        let type = card.type, queue = card.queue
        let due = card.originalDeck != 0 && card.originalDue != 0 ? card.originalDue : card.due
        // A card reset to new ("Forget" without resetting counts) keeps its reviews and lapses.
        guard type != 0 else {
            return CardState(reps: Int(card.reps.clamped(to: 0...1_000_000)), lapses: Int(card.lapses.clamped(to: 0...1_000_000)))
        }
        var state = CardState(phase: .review, intervalDays: Int(card.interval.clamped(to: 0...36_500)),
                              easePermille: card.factor >= 1300 ? Int(card.factor.clamped(to: 1300...10_000)) : 2500,
                              reps: Int(card.reps.clamped(to: 0...1_000_000)), lapses: Int(card.lapses.clamped(to: 0...1_000_000)), streak: 0)
        if let stability = data?["s"] as? Double, let difficulty = data?["d"] as? Double,
           stability.isFinite, stability > 0, difficulty.isFinite {
            state.stability = min(stability, 36_500)
            state.difficulty = difficulty.clamped(to: 1...10)
        }
        func dayStart(_ day: Int64) -> Date { days.start(ofDueDay: day) }
        let intraday = queue == 1 || (queue < 0 && due > 1_000_000_000)
        switch type {
        case 1, 3:
            state.phase = type == 1 ? .learning : .relearning
            let stepMinutes = type == 1 ? steps.learningSteps : steps.relearningSteps
            let remaining = Int(card.left % 1000)
            state.step = max(0, min(stepMinutes.count - remaining, max(stepMinutes.count - 1, 0)))
            state.scheduledSeconds = stepMinutes.isEmpty ? 600 : Int(stepMinutes[min(state.step, stepMinutes.count - 1)] * 60)
            state.due = intraday ? packageDate(Double(due)) : dayStart(due)
            if type == 1 { state.intervalDays = 0 }
        default:
            state.due = dayStart(due)
        }
        if let lastReview = (data?["lrt"] as? Double).flatMap({ $0.isFinite ? $0 : nil }) ?? reviews.last.map({ $0.time.timeIntervalSince1970 }) {
            state.lastReview = packageDate(lastReview)
        } else if let due = state.due {
            state.lastReview = due.addingTimeInterval(-Double(state.intervalDays) * 86_400)
        }
        state.streak = reviews.reversed().prefix { $0.rating != .again }.count
        return state
    }
}
