import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

extension Collection {
    /// Today's queue for the given decks (all decks when nil): the core's `QueueBuilder` over
    /// this collection's rows, each deck with its own preset and study day. `countingSiblings`:
    /// the cards burying would leave out stay in, as Anki's deck list counts them.
    package func studyQueue(deckIDs: [Int64]? = nil, now: Date, timeZone: TimeZone, countingSiblings: Bool = false) throws -> StudyQueue {
        try read { db in
            let rules = try Self.limitRules(db)
            let ids = try deckIDs ?? Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM deck ORDER BY name"))
            var stored = try ids.map { try Self.deck(db, id: $0) }
            let studied = Set(stored.map(\.id))
            if rules.applyAllParentLimits, deckIDs != nil, let first = stored.first {
                stored += try Self.decksAroundForLimits(db, of: first, leaving: studied)
            }
            let byName = Dictionary(stored.map { ($0.name, $0.id) }) { first, _ in first }
            let decks = try stored.map { deck in
                let preset = try Self.preset(db, id: deck.presetID)
                // The nearest deck above it among those queued: Anki's limits are a tree.
                let parts = deck.name.components(separatedBy: "::")
                let parent = (1..<max(parts.count, 1)).reversed().lazy.compactMap { byName[parts.prefix($0).joined(separator: "::")] }.first
                return QueueBuilder.Deck(id: deck.id, preset: preset, clock: DecodeCache.clock(timeZone: timeZone, rolloverHour: preset.rolloverHour),
                                         parentID: parent, limits: deck.limits, gathers: studied.contains(deck.id))
            }
            var builder = QueueBuilder(now: now, seed: seed, rules: rules)
            builder.leavesOutSiblings = !countingSiblings
            return try builder.build(decks, from: QueueRows(db: db))
        }
    }

    /// Where every parent's limits apply: the decks above `deck`, for their limits, and the
    /// others under the topmost of them, whose answers today count against those limits.
    static func decksAroundForLimits(_ db: Database, of deck: Deck, leaving studied: Set<Int64>) throws -> [Deck] {
        let parts = deck.name.components(separatedBy: "::")
        guard parts.count > 1 else { return [] }
        let top = parts[0]
        return try Row.fetchAll(db.cachedStatement(sql: "SELECT \(DeckTable.columns) FROM deck WHERE name = ? OR name LIKE ? ESCAPE '\\' ORDER BY name"),
                                arguments: [top, Self.likeEscaped(top + "::") + "%"])
            .map(DeckTable.decode).filter { !studied.contains($0.id) }
    }
}

/// The rows a queue is built from, read inside one read transaction. Each answers a question
/// about data; what to do with the answers is `QueueBuilder`'s.
struct QueueRows: QueueSource {
    let db: Database

    private static let visible = "suspended = 0 AND (buried_until IS NULL OR buried_until <= ?)"

    func learningCards(deck: Int64, dueBefore: Int64, visibleAt: Int64) throws -> [(card: QueuedCard, lastAnswered: Int64?)] {
        let statement = try db.cachedStatement(sql: """
            SELECT id, note_id, due, phase, last_review FROM card
            WHERE deck_id = ? AND phase IN ('learning', 'relearning') AND \(Self.visible) AND due < ?
            """)
        return try Row.fetchAll(statement, arguments: [deck, visibleAt, dueBefore]).map { row in
            (QueuedCard(id: row["id"], noteID: row["note_id"], deckID: deck, phase: CardPhase(rawValue: row["phase"]) ?? .learning,
                        due: row["due"] ?? 0), row["last_review"])
        }
    }

    /// What `AnkiTieBreak` ranks a review by, as columns `tie` decodes: the card's id in Anki
    /// and what its modification time there is made of, all from the card's row (its note's part
    /// is the card's copy of `Schema.noteTieValues`), which the index due reviews are read from holds.
    static let tieColumns = "card.anki_id, card.anki_mod, card.modified_at, card.note_changed, card.note_created"

    /// The rank of the review whose `tieColumns` begin at column `first`.
    static func tie(_ row: SQLiteRow, from first: Int) -> Int64 {
        let id = row.int64(0)
        let ankiID = row.optionalInt64(first) ?? Collection.proposedAnkiID(created: row.int64(first + 4), id: id) ?? id
        let modified = Collection.ankiCardModified(cardAnkiMod: row.optionalInt64(first + 1), cardChanged: row.optionalInt64(first + 2),
                                                   noteChanged: row.int64(first + 3))
        return AnkiTieBreak.rank(cardID: ankiID, modified: modified)
    }

    func reviewCards(deck: Int64, dueBefore: Int64, visibleAt: Int64, limit: Int) throws -> [(card: QueuedCard, tie: Int64)] {
        let statement = try db.cachedStatement(sql: """
            SELECT card.id, card.note_id, card.due, \(Self.tieColumns) FROM card
            WHERE card.deck_id = ? AND phase = 'review' AND \(Self.visible) AND due < ? ORDER BY due LIMIT ?
            """)
        return try statement.rows([deck, visibleAt, dueBefore, limit]) { row in
            (QueuedCard(id: row.int64(0), noteID: row.int64(1), deckID: deck, phase: .review, due: row.optionalInt64(2) ?? 0), Self.tie(row, from: 3))
        }
    }

    func reviewCardsWithFacts(deck: Int64, dueBefore: Int64, visibleAt: Int64) throws -> [(card: QueuedCard, facts: ReviewFacts?, tie: Int64)] {
        let statement = try db.cachedStatement(sql: """
            SELECT card.id, note_id, due, interval_days, ease, stability, difficulty, last_review, template, ordinal,
                   coalesce(note.anki_id, note.created_at * 1000) AS added, \(Self.tieColumns)
            FROM card JOIN note ON note.id = card.note_id
            WHERE card.deck_id = ? AND phase = 'review' AND \(Self.visible) AND due < ? ORDER BY due
            """)
        let ranks = try templateRanks(deck: deck)
        return try statement.rows([deck, visibleAt, dueBefore]) { row in
            (QueuedCard(id: row.int64(0), noteID: row.int64(1), deckID: deck, phase: .review, due: row.optionalInt64(2) ?? 0),
             ReviewFacts(intervalDays: Int(row.int64(3)), easePermille: Int(row.int64(4)), stability: row.optionalDouble(5), difficulty: row.optionalDouble(6),
                         lastReview: row.optionalInt64(7), added: row.int64(10), template: Int(ranks.rank(name: row.text(8), ordinal: Int(row.int64(9))))),
             Self.tie(row, from: 11))
        }
    }

    /// A new card's place in its deck's order (see `newCards`). Index `card_deck_new_place`
    /// (migration v21) is on this very expression, which is what lets a query ordered by it
    /// read the index instead of sorting the deck: a change to it needs a new index.
    static let newCardPlace = """
        (CASE WHEN anki_position IS NULL THEN new_position \
        ELSE \(QueuedCard.ankiPositionFlag) | (anki_position << 10) | (new_position & 1023) END)
        """

    func newCards(deck: Int64, unit: Int??, visibleAt: Int64, limit: Int?, descending: Bool) throws -> [QueuedCard] {
        // A card from Anki is placed by its own position in Anki's new queue, as Anki places it
        // (a card forgotten to the end goes after its note's other cards); the flag above the
        // position says so, and decks of Anki cards merge by it (`QueueOrdering.merged`).
        // (Spelled out in the order too: there "due" inside an expression is the card's column.)
        let place = Self.newCardPlace
        let base = "SELECT id, note_id, \(place) AS due FROM card WHERE deck_id = ? AND phase = 'new' AND \(Self.visible)"
        // Highest note first, a note's own cards still in their order.
        let order = descending ? " ORDER BY \(place) >> 10 DESC, \(place) & 1023" : " ORDER BY \(place)"
        let limited = limit == nil ? "" : " LIMIT ?"
        let tail: [(any DatabaseValueConvertible)?] = limit.map { [$0] } ?? []
        let ranks = try templateRanks(deck: deck)
        switch unit {
        case .none:
            return try fetch(base + order + limited, StatementArguments([deck, visibleAt] + tail), deck: deck, phase: .new, ranks: ranks)
        case .some(.none):
            return try fetch(base + " AND unit_position IS NULL" + order + limited, StatementArguments([deck, visibleAt] + tail), deck: deck,
                               phase: .new, ranks: ranks)
        case .some(.some(let position)):
            return try fetch(base + " AND unit_position = ?" + order + limited, StatementArguments([deck, visibleAt, position] + tail),
                             deck: deck, phase: .new, ranks: ranks)
        }
    }

    /// A deck's templates as Anki numbers them: a template's place among its note type's
    /// templates (Maeil's own count as one note type), or, for blanks, the blank's number less one.
    private struct TemplateRanks {
        private var byIndex: [Int] = [], byName: [String: Int] = [:]

        init(_ templates: [CardTemplate]) {
            var seen: [String: Int] = [:]
            for template in templates {
                let type = template.noteType ?? ""
                let rank = template.blanks == nil ? seen[type, default: 0] : -1
                byIndex.append(rank)
                byName[template.name] = rank
                seen[type, default: 0] += 1
            }
        }

        func rank(_ rank: Int?, ordinal: Int) -> Int16 { Int16(clamping: (rank ?? 0) < 0 ? max(ordinal - 1, 0) : rank ?? 0) }
        func rank(name: String, ordinal: Int) -> Int16 { rank(byName[name], ordinal: ordinal) }
        /// From a new card's position, which holds its template's index and its blank's number.
        func rank(position: Int64) -> Int16 {
            let index = Int((position >> 5) & 31)
            return rank(index < byIndex.count ? byIndex[index] : nil, ordinal: Int(position & 31))
        }
    }

    private func templateRanks(deck: Int64) throws -> TemplateRanks {
        let text = try String.fetchOne(db.cachedStatement(sql: "SELECT templates FROM deck WHERE id = ?"), arguments: [deck]) ?? "[]"
        return TemplateRanks(try DecodeCache.templates(text))
    }

    func firstUnlearnedUnit(deck: Int64) throws -> Int?? {
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT unit_position FROM card WHERE deck_id = ? AND suspended = 0 AND phase IN ('new', 'learning') ORDER BY new_position LIMIT 1
            """), arguments: [deck])
        return row.map { $0["unit_position"] as Int? }
    }

    /// Answers given in Anki in `deck` from `since` (a sync or a package brought them), counted
    /// as Anki counts them: a new card's first answer (a learning row after no interval) and a
    /// review card's.
    func ankiAnsweredSince(deck: Int64, since: Date) throws -> (new: Int, reviews: Int, milliseconds: Int) {
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT total(anki_type = 0 AND anki_last_ivl = 0) AS new, total(anki_type = 1) AS reviews, total(duration_ms) AS milliseconds
            FROM review_log WHERE deck_id = ? AND time >= ? AND kind = 2 AND anki_type IS NOT NULL
            """), arguments: [deck, since.unixMilliseconds])
        return row.map { (Int($0["new"] as Double), Int($0["reviews"] as Double), Int($0["milliseconds"] as Double)) } ?? (0, 0, 0)
    }

    func answeredSince(deck: Int64, since: Date) throws -> AnsweredToday {
        var answered = AnsweredToday()
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT b_phase AS phase, count(*) AS answers, total(duration_ms) AS milliseconds FROM review_log
            WHERE deck_id = ? AND time >= ? AND kind = 0 GROUP BY b_phase
            """), arguments: [deck, since.unixMilliseconds])
        while let row = try rows.next() {
            answered.milliseconds += Int(row["milliseconds"] as Double)
            switch row["phase"] as String? {
            case "new": answered.new = row["answers"]
            case "review": answered.reviews = row["answers"]
            default: break
            }
        }
        let anki = try ankiAnsweredSince(deck: deck, since: since)
        answered.new += anki.new
        answered.reviews += anki.reviews
        answered.milliseconds += anki.milliseconds
        // What Anki counted beyond the log, on the day it counted it.
        if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT new, reviews, milliseconds FROM anki_day_count WHERE deck_id = ? AND day_start = ?"),
                                      arguments: [deck, since.unixMilliseconds]) {
            answered.new += row[0] as Int
            answered.reviews += row[1] as Int
            answered.milliseconds += row[2] as Int
        }
        // Learning steps answered, from the state each answer found: the builder tells the
        // interday ones. (Anki's own rows today carry no due; they count as Anki's type says.)
        let steps = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT b_due, b_last_review FROM review_log
            WHERE deck_id = ? AND time >= ? AND kind = 0 AND b_phase IN ('learning', 'relearning') AND b_due IS NOT NULL AND b_last_review IS NOT NULL
            """), arguments: [deck, since.unixMilliseconds])
        while let row = try steps.next() {
            answered.learning.append(.init(due: row[0], answeredBefore: row[1]))
        }
        return answered
    }

    /// Queue rows: id, note id and due (and the phase, when `phase` is nil), found by name once.
    private func fetch(_ sql: String, _ arguments: StatementArguments, deck: Int64, phase: CardPhase?,
                       ranks: TemplateRanks? = nil) throws -> [QueuedCard] {
        let statement = try db.cachedStatement(sql: sql)
        let columns = ColumnMap(statement)
        let id = columns["id"], noteID = columns["note_id"], due = columns["due"]
        let phaseColumn = phase == nil ? columns["phase"] : nil
        return try statement.rows(arguments) { row in
            let cardPhase = phase ?? phaseColumn.flatMap { CardPhase(rawValue: row.text($0)) } ?? .learning
            let dueOrPosition = row.optionalInt64(due) ?? 0
            return QueuedCard(id: row.int64(id), noteID: row.int64(noteID), deckID: deck, phase: cardPhase, due: dueOrPosition,
                              template: ranks?.rank(position: dueOrPosition) ?? 0)
        }
    }
}
