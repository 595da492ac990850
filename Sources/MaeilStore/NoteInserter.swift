import Foundation
import GRDB
import GRDBSQLite
import MaeilCore

/// A card to create with a note, carrying a schedule from elsewhere (an Anki package).
public struct CardSeed: Sendable {
    public var template: String
    public var ordinal: Int
    public var state: CardState
    public var suspended: Bool
    public var buriedUntil: Date?
    /// The answers before `state`, oldest first, kept as imported log entries.
    public var history: [ImportedAnswer]

    public init(template: String, ordinal: Int, state: CardState, suspended: Bool = false, buriedUntil: Date? = nil,
                history: [ImportedAnswer] = []) {
        self.template = template
        self.ordinal = ordinal
        self.state = state
        self.suspended = suspended
        self.buriedUntil = buriedUntil
        self.history = history
    }
}

/// One answer of another program's history, as the review log keeps it.
public struct ImportedAnswer: Sendable {
    public var time: Date
    public var rating: Rating
    public var durationMilliseconds: Int
    public var before: CardState
    public var after: CardState

    public init(time: Date, rating: Rating, durationMilliseconds: Int, before: CardState, after: CardState) {
        self.time = time
        self.rating = rating
        self.durationMilliseconds = durationMilliseconds
        self.before = before
        self.after = after
    }
}

/// Adds new notes and their cards to one deck, as fast as SQLite takes them: an import of
/// 20,000 notes spends most of its time here.
///
/// Its statements are prepared once and bound through SQLite's C API, and what notes of a deck
/// share (the field names and languages) is joined once. Every note and card the store creates
/// is written here.
public struct NoteInserter {
    private let db: Database
    private let deck: Deck
    private let now: Date
    private let nowSeconds: Int64
    private let insertNote: Statement
    private let insertCard: Statement
    private let appendLog: Statement
    private var lastNames: [String] = []
    private var lastLanguages: [String?] = []
    private var namesColumn = ""
    private var languagesColumn = ""
    /// Reused for every note: the values and tags columns as UTF-8.
    private var values: [UInt8] = []
    private var tags: [UInt8] = []
    private var bind = Binder()
    /// New cards waiting to be written `batchSize` to a statement: one statement per card
    /// cost more in SQLite's per-statement work than in writing the rows.
    private var pending: [(noteID: Int64, template: String, ordinal: Int, unitPosition: Int?, newPosition: Int64)] = []
    private var insertCards: Statement?
    static let batchSize = 32

    init(db: Database, deck: Deck, now: Date) throws {
        self.db = db
        self.deck = deck
        self.now = now
        nowSeconds = now.unixSeconds
        insertNote = try db.makeStatement(sql: """
            INSERT INTO note (guid, deck_id, kind, note_type, field_names, field_values, field_languages, tags, unit_id, position, source,
                              created_at, modified_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(guid) DO NOTHING
            """)
        insertCard = try db.makeStatement(sql: """
            INSERT INTO card (note_id, deck_id, template, ordinal, unit_position, new_position, suspended, buried_until, \(Columns.state))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        appendLog = try db.makeStatement(sql: Collection.appendLogSQL)
    }

    /// Adds a note and the cards its deck's templates give it. A card with a seed takes the
    /// seed's schedule, flags and history; the others are new. `scheduled` counts the cards
    /// that took a schedule. Returns nil, writing nothing, when a note with the draft's guid is
    /// already in the collection (guids are unique across decks).
    ///
    /// `listingCards: false` is for an importer: `cards` comes back empty, and new cards
    /// without a seed wait to be written several to a statement, so the caller must `flush`
    /// before it reads cards and when it is done.
    @discardableResult
    public mutating func add(_ draft: NoteDraft, unitPosition: Int?, seeds: [CardSeed] = [], listingCards: Bool = true) throws
        -> (noteID: Int64, cards: [NewCard], scheduled: Int)? {
        if !draft.fields.elementsEqual(lastNames, by: { $0.name == $1 }) || !draft.fields.elementsEqual(lastLanguages, by: { $0.language == $1 }) {
            lastNames = draft.fields.map(\.name)
            lastLanguages = draft.fields.map(\.language)
            namesColumn = lastNames.joined(separator: FieldSeparator.unit)
            languagesColumn = lastLanguages.map { $0 ?? "" }.joined(separator: FieldSeparator.unit)
        }
        values.removeAll(keepingCapacity: true)
        Note.appendValues(draft.fields, to: &values)
        tags.removeAll(keepingCapacity: true)
        Tags.appendColumn(draft.tags, to: &tags)
        bind.begin(insertNote)
        bind.text(draft.guid); bind.int(deck.id); bind.text(draft.kind.rawValue); bind.text(draft.noteType)
        bind.text(namesColumn); bind.utf8(values); bind.text(languagesColumn); bind.utf8(tags)
        bind.int(draft.unitID); bind.int(Int64(draft.position)); bind.text(draft.source); bind.int(nowSeconds); bind.int(nowSeconds)
        try bind.step(db)
        guard sqlite3_changes(db.sqliteConnection) > 0 else { return nil }
        let noteID = sqlite3_last_insert_rowid(db.sqliteConnection)
        let (cards, scheduled) = try addCards(noteID: noteID, fields: draft.fields, noteType: draft.noteType, position: draft.position,
                                              unitPosition: unitPosition, existing: [], seeds: seeds, listingCards: listingCards)
        return (noteID, cards, scheduled)
    }

    /// Creates the cards a note should have and does not (`existing` holds "template#ordinal"
    /// keys): on add, and after an edit fills a field a template needs.
    mutating func addCards(noteID: Int64, fields: [NoteField], noteType: String?, position: Int, unitPosition: Int?,
                           existing: Set<String>, seeds: [CardSeed] = [], listingCards: Bool = true) throws -> (cards: [NewCard], scheduled: Int) {
        var cards: [NewCard] = []
        var scheduled = 0
        for index in deck.templates.indices {
            let name = deck.templates[index].name
            try deck.templates[index].forEachOrdinal(for: fields, noteType: noteType) { ordinal in
                guard existing.isEmpty || !existing.contains("\(name)#\(ordinal)") else { return }
                let seed = seeds.isEmpty ? nil : seeds.first { $0.template == name && $0.ordinal == ordinal }
                let newPosition = Collection.newPosition(unit: unitPosition, note: position, template: index, ordinal: ordinal)
                if seed == nil, !listingCards {
                    pending.append((noteID, name, ordinal, unitPosition, newPosition))
                    if pending.count == Self.batchSize { try flush() }
                    return
                }
                let cardID = try insertOneCard(noteID: noteID, template: name, ordinal: ordinal, unitPosition: unitPosition,
                                               newPosition: newPosition, seed: seed)
                if let seed, seed.state != .new {
                    scheduled += 1
                    for answer in seed.history {
                        try log(cardID: cardID, time: answer.time, kind: .imported, rating: answer.rating.rawValue,
                                durationMilliseconds: answer.durationMilliseconds, scheduler: "anki", before: answer.before, after: answer.after)
                    }
                    // A card's state is the one its newest log entry ends with: `maeil check` relies on it.
                    try log(cardID: cardID, time: now, kind: .imported, rating: 0, durationMilliseconds: 0, scheduler: "manual",
                            before: .new, after: seed.state.storedForm)
                }
                if listingCards { cards.append(NewCard(id: cardID, template: name, ordinal: ordinal)) }
            }
        }
        return (cards, scheduled)
    }

    /// Writes the new cards still waiting. An importer calls it before it reads or changes
    /// cards some other way, and when it is done with the deck.
    public mutating func flush() throws {
        guard !pending.isEmpty else { return }
        if pending.count == Self.batchSize {
            let statement = try insertCards ?? db.makeStatement(sql: Self.newCardsSQL(rows: Self.batchSize, deckID: deck.id))
            insertCards = statement
            bind.begin(statement)
            for card in pending {
                bind.int(card.noteID); bind.text(card.template); bind.int(Int64(card.ordinal)); bind.int(card.unitPosition.map(Int64.init))
                bind.int(card.newPosition)
            }
            try bind.step(db)
        } else {
            for card in pending {
                try insertOneCard(noteID: card.noteID, template: card.template, ordinal: card.ordinal, unitPosition: card.unitPosition,
                                  newPosition: card.newPosition, seed: nil)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes one card, new or with a seed's state and flags; returns its id.
    @discardableResult
    private mutating func insertOneCard(noteID: Int64, template: String, ordinal: Int, unitPosition: Int?, newPosition: Int64,
                                        seed: CardSeed?) throws -> Int64 {
        bind.begin(insertCard)
        bind.int(noteID); bind.int(deck.id); bind.text(template); bind.int(Int64(ordinal)); bind.int(unitPosition.map(Int64.init))
        bind.int(newPosition); bind.int(seed?.suspended == true ? 1 : 0); bind.int(seed?.buriedUntil?.unixSeconds)
        bind.state(seed?.state ?? .new)
        try bind.step(db)
        return sqlite3_last_insert_rowid(db.sqliteConnection)
    }

    /// An INSERT of `rows` new cards: their state is CardState.new, written out as SQL.
    static func newCardsSQL(rows: Int, deckID: Int64) -> String {
        let new = CardState.new
        func literal(_ value: Int?) -> String { value.map(String.init) ?? "NULL" }
        func literal(_ value: Double?) -> String { value.map { "\($0)" } ?? "NULL" }
        let state = ["'\(new.phase.rawValue)'", literal(new.step), literal(new.scheduledSeconds), literal(new.intervalDays),
                     literal(new.easePermille), literal(new.stability), literal(new.difficulty), literal(new.due.map { Int($0.unixSeconds) }),
                     literal(new.reps), literal(new.lapses), literal(new.streak), literal(new.lastReview.map { Int($0.unixSeconds) })]
        let row = "(?, \(deckID), ?, ?, ?, ?, 0, NULL, \(state.joined(separator: ", ")))"
        return "INSERT INTO card (note_id, deck_id, template, ordinal, unit_position, new_position, suspended, buried_until, \(Columns.state)) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    private mutating func log(cardID: Int64, time: Date, kind: ReviewLog.Kind, rating: Int, durationMilliseconds: Int, scheduler: String,
                     before: CardState, after: CardState) throws {
        bind.begin(appendLog)
        bind.int(cardID); bind.int(deck.id); bind.int(time.unixMilliseconds); bind.int(Int64(kind.rawValue)); bind.int(Int64(rating))
        bind.int(Int64(durationMilliseconds)); bind.text(scheduler); bind.text(nil); bind.text(nil)
        bind.state(before); bind.state(after)
        try bind.step(db)
    }

}

/// Binds one row's values to a statement and runs it, straight through SQLite's C API.
///
/// Texts are gathered in one buffer the binder keeps and reuses, and handed to SQLite
/// without a copy (SQLITE_STATIC) for the one step that reads them: a copy per text, with its
/// malloc and free, was a sixth of writing a note.
struct Binder {
    private var handle: SQLiteStatement?
    private var index: Int32 = 1
    private var arena: [UInt8] = []
    private var texts: [(index: Int32, start: Int, count: Int)] = []

    /// Starts a row for `statement`.
    mutating func begin(_ statement: Statement) {
        handle = statement.sqliteStatement
        index = 1
        arena.removeAll(keepingCapacity: true)
        texts.removeAll(keepingCapacity: true)
    }

    mutating func int(_ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
        index += 1
    }

    mutating func double(_ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
        index += 1
    }

    mutating func text(_ value: String?) {
        if let value {
            texts.append((index, arena.count, value.utf8.count))
            arena.append(contentsOf: value.utf8)
        } else {
            sqlite3_bind_null(handle, index)
        }
        index += 1
    }

    mutating func utf8(_ bytes: [UInt8]) {
        texts.append((index, arena.count, bytes.count))
        arena.append(contentsOf: bytes)
        index += 1
    }

    /// The 12 state columns, in `Columns.state` order.
    mutating func state(_ state: CardState) {
        text(state.phase.rawValue); int(Int64(state.step)); int(Int64(state.scheduledSeconds)); int(Int64(state.intervalDays))
        int(Int64(state.easePermille)); double(state.stability); double(state.difficulty); int(state.due?.unixSeconds)
        int(Int64(state.reps)); int(Int64(state.lapses)); int(Int64(state.streak)); int(state.lastReview?.unixSeconds)
    }

    /// Binds the texts and runs the statement once; the texts are unbound before the buffer
    /// can change.
    func step(_ db: Database) throws {
        let code = arena.withUnsafeBufferPointer { buffer -> Int32 in
            let base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(("" as StaticString).utf8Start))
            for text in texts {
                sqlite3_bind_text(handle, text.index, (base + text.start).assumingMemoryBound(to: CChar.self), Int32(text.count), nil)
            }
            let code = sqlite3_step(handle)
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            return code
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                sql: handle.map { String(cString: sqlite3_sql($0)) })
        }
    }
}

extension CollectionWriter {
    /// A fast way to add many new notes to one deck within this writer's transaction.
    public func noteInserter(deck: Deck) throws -> NoteInserter {
        try NoteInserter(db: db, deck: deck, now: now)
    }
}
