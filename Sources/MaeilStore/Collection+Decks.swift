import Foundation
import GRDB
import MaeilCore

extension Collection {
    // MARK: Presets

    package func presets() throws -> [Preset] {
        try read { db in try Self.presets(db) }
    }

    static func presets(_ db: Database) throws -> [Preset] {
        try Row.fetchAll(db, sql: "SELECT \(PresetTable.columns) FROM preset ORDER BY id").map(PresetTable.decode)
    }

    package func preset(id: Int64) throws -> Preset { try read { db in try Self.preset(db, id: id) } }

    /// The preset a deck uses now.
    static func preset(_ db: Database, deckID: Int64) throws -> Preset {
        guard let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT preset_id FROM deck WHERE id = ?"), arguments: [deckID]) else {
            throw StoreError.missingDeck(deckID)
        }
        return try preset(db, id: id)
    }

    static func preset(_ db: Database, id: Int64) throws -> Preset {
        try fetchOne(db, "SELECT \(PresetTable.columns) FROM preset WHERE id = ?", [id], PresetTable.decode) ?? { throw StoreError.missingPreset(id) }()
    }

    /// Inserts the preset, or updates it when it has an id. Returns it with its id.
    @discardableResult
    package func save(_ preset: Preset) throws -> Preset {
        try transaction { db in try Self.save(db, preset) }
    }

    static func save(_ db: Database, _ preset: Preset) throws -> Preset {
        let scheduler = try StableJSON.string(preset.scheduler)
        let values: [(any DatabaseValueConvertible & Sendable)?] = [
            preset.name, scheduler, preset.newPerDay, preset.reviewsPerDay, preset.rolloverHour,
            preset.burySiblings, preset.curriculumGating, preset.ankiConfig,
            preset.order == StudyOrder() ? nil : try StableJSON.string(preset.order),
            preset.buryNew, preset.buryReviews, preset.buryInterdayLearning,
        ]
        var saved = preset
        if let id = preset.id {
            try db.execute(sql: """
                UPDATE preset SET name = ?, scheduler = ?, new_per_day = ?, reviews_per_day = ?, rollover_hour = ?,
                bury_siblings = ?, curriculum_gating = ?, anki_config = ?, study_order = ?,
                bury_new = ?, bury_reviews = ?, bury_interday_learning = ? WHERE id = ?
                """, arguments: StatementArguments(values + [id]))
        } else {
            try db.execute(sql: """
                INSERT INTO preset (name, scheduler, new_per_day, reviews_per_day, rollover_hour, bury_siblings, curriculum_gating,
                                    anki_config, study_order, bury_new, bury_reviews, bury_interday_learning)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: StatementArguments(values))
            saved.id = db.lastInsertedRowID
        }
        return saved
    }

    // MARK: Decks

    package func decks() throws -> [Deck] {
        try read { db in try Row.fetchAll(db, sql: "SELECT \(DeckTable.columns) FROM deck ORDER BY name").map(DeckTable.decode) }
    }

    package func deck(id: Int64) throws -> Deck { try read { db in try Self.deck(db, id: id) } }

    static func deck(_ db: Database, id: Int64) throws -> Deck {
        try fetchOne(db, "SELECT \(DeckTable.columns) FROM deck WHERE id = ?", [id], DeckTable.decode) ?? { throw StoreError.missingDeck(id) }()
    }

    /// The deck named `name` (case-insensitive), or nil.
    package func deck(named name: String) throws -> Deck? {
        try read { db in try Self.deck(db, named: name) }
    }

    static func deck(_ db: Database, named name: String) throws -> Deck? {
        try fetchOne(db, "SELECT \(DeckTable.columns) FROM deck WHERE name = ?", [DeckName.canonical(name)], DeckTable.decode)
    }

    package func requireDeck(named name: String) throws -> Deck {
        guard let deck = try deck(named: name) else { throw StoreError.noSuchDeck(name) }
        return deck
    }

    /// Creates a deck. Without a preset it gets one of its own, named after it, with defaults.
    @discardableResult
    package func createDeck(name: String, kind: NoteKind? = nil, description: String = "", templates: [CardTemplate],
                           preset: Preset? = nil, speak: String? = nil, source: String? = nil, now: Date) throws -> Deck {
        try transaction { db in
            try Self.createDeck(db, name: name, kind: kind, description: description, templates: templates,
                                preset: preset, speak: speak, source: source, now: now)
        }
    }

    static func createDeck(_ db: Database, name: String, kind: NoteKind?, description: String, templates: [CardTemplate],
                           preset: Preset?, presetID: Int64? = nil, speak: String?, source: String?, ankiID: Int64? = nil,
                           limits: DeckLimits = DeckLimits(), ankiJSON: String? = nil, now: Date) throws -> Deck {
        let trimmed = DeckName.canonical(name)
        guard !trimmed.isEmpty else { throw StoreError.deckNameEmpty }
        guard try deck(db, named: trimmed) == nil else { throw StoreError.deckExists(trimmed) }
        let savedID = try presetID ?? save(db, preset ?? Preset(name: trimmed)).id!
        let templatesJSON = try DeckTable.templatesColumn(templates)
        try db.execute(sql: """
            INSERT INTO deck (name, kind, description, preset_id, templates, speak, source, anki_id, limits, anki_json, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [trimmed, kind?.rawValue, description, savedID, templatesJSON, speak, source, ankiID, try DeckTable.limitsColumn(limits),
                             ankiJSON, now.unixSeconds])
        return try deck(db, id: db.lastInsertedRowID)
    }

    /// Updates a deck's name, description, templates, speech field, preset and Anki id.
    package func update(_ deck: Deck) throws {
        try transaction { db in try Self.update(db, deck) }
    }

    static func update(_ db: Database, _ deck: Deck) throws {
        let templatesJSON = try DeckTable.templatesColumn(deck.templates)
        try db.execute(sql: """
            UPDATE deck SET name = ?, kind = ?, description = ?, preset_id = ?, templates = ?, speak = ?, source = ?, anki_id = ?, limits = ?,
              anki_json = ?
            WHERE id = ?
            """, arguments: [deck.name, deck.kind?.rawValue, deck.description, deck.presetID, templatesJSON, deck.speak, deck.source,
                             deck.ankiID, try DeckTable.limitsColumn(deck.limits), deck.ankiJSON, deck.id])
    }

    // MARK: Curriculum units

    package func units(deckID: Int64) throws -> [CurriculumUnit] {
        try read { db in try Self.units(db, deckID: deckID) }
    }

    static func units(_ db: Database, deckID: Int64) throws -> [CurriculumUnit] {
        try Row.fetchAll(db, sql: "SELECT id, deck_id, key, title, position FROM unit WHERE deck_id = ? ORDER BY position", arguments: [deckID])
            .map { CurriculumUnit(id: $0["id"], deckID: $0["deck_id"], key: $0["key"], title: $0["title"], position: $0["position"]) }
    }

    /// Inserts or updates a curriculum unit by key; returns its id.
    @discardableResult
    package func saveUnit(deckID: Int64, key: String, title: String, position: Int) throws -> Int64 {
        try transaction { db in try Self.upsertUnit(db, deckID: deckID, key: key, title: title, position: position) }
    }

    /// Inserts or updates a unit by key.
    @discardableResult
    static func upsertUnit(_ db: Database, deckID: Int64, key: String, title: String, position: Int) throws -> Int64 {
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM unit WHERE deck_id = ? AND key = ?", arguments: [deckID, key]) {
            try db.execute(sql: "UPDATE unit SET title = ?, position = ? WHERE id = ?", arguments: [title, position, id])
            return id
        }
        try db.execute(sql: "INSERT INTO unit (deck_id, key, title, position) VALUES (?, ?, ?, ?)", arguments: [deckID, key, title, position])
        return db.lastInsertedRowID
    }
}
