import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

// Each table's columns are named here once, and each table has one decoder, which reads rows
// by column name. A query joining tables selects a table's columns with a prefix
// (`selection(from:prefix:)`), and the decoder is told the same prefix.

/// "t.a AS p_a, t.b AS p_b" for columns "a, b": a table's columns in a join, kept apart by a prefix.
func selection(_ columns: String, from alias: String, prefix: String) -> String {
    columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.map { "\(alias).\($0) AS \(prefix)\($0)" }
        .joined(separator: ", ")
}

extension Collection {
    /// The row `sql` selects, decoded; nil when there is none.
    static func fetchOne<T>(_ db: Database, _ sql: String, _ arguments: StatementArguments, _ decode: (Row) throws -> T) throws -> T? {
        try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments).map(decode)
    }

    /// The rows `sql` selects, decoded by a decoder made once for the statement's columns.
    static func fetchAll<T>(_ db: Database, _ sql: String, _ arguments: StatementArguments,
                            _ decoder: (ColumnMap) -> (SQLiteRow) throws -> T) throws -> [T] {
        let statement = try db.cachedStatement(sql: sql)
        return try statement.rows(arguments, decoder(ColumnMap(statement)))
    }
}

extension CardState {
    /// The state as the store keeps it: times in whole seconds. Comparing stored states with
    /// this form keeps sub-second noise out of "did the card change?".
    package var storedForm: CardState {
        var state = self
        state.due = due.map { Date(unixSeconds: $0.unixSeconds) }
        state.lastReview = lastReview.map { Date(unixSeconds: $0.unixSeconds) }
        return state
    }
}

enum CardTable {
    static let columns = "id, note_id, deck_id, template, ordinal, starred, suspended, buried_until, anki_mod, anki_id, flags, buried_by_user, "
        + CardStateColumns.list()
    static let byID = "SELECT \(columns) FROM card WHERE id = ?"
    static let byNote = "SELECT \(columns) FROM card WHERE note_id = ? ORDER BY new_position"
    /// Decodes a query that selects `columns` as they are.
    static let decoder = Decoder(ColumnMap(list: columns))
    /// A card and the other cards of its note.
    static let withSiblings = "SELECT \(columns) FROM card WHERE note_id = (SELECT note_id FROM card WHERE id = ?) ORDER BY new_position"

    struct Decoder {
        let state: CardStateColumns
        let id, noteID, deckID, template, ordinal, starred, suspended, buriedUntil, ankiModified, ankiID, flags, buriedByUser: Int

        init(_ columns: ColumnMap, prefix: String = "") {
            state = CardStateColumns(columns, prefix: prefix)
            (id, noteID, deckID) = (columns[prefix + "id"], columns[prefix + "note_id"], columns[prefix + "deck_id"])
            (template, ordinal, starred) = (columns[prefix + "template"], columns[prefix + "ordinal"], columns[prefix + "starred"])
            (suspended, buriedUntil, ankiModified) = (columns[prefix + "suspended"], columns[prefix + "buried_until"], columns[prefix + "anki_mod"])
            (ankiID, flags, buriedByUser) = (columns[prefix + "anki_id"], columns[prefix + "flags"], columns[prefix + "buried_by_user"])
        }

        func decode(_ row: SQLiteRow) -> Card {
            Card(id: row.int64(id), noteID: row.int64(noteID), deckID: row.int64(deckID), template: row.text(template),
                 ordinal: row.int(ordinal), state: state.decode(row) ?? .new, starred: row.bool(starred), suspended: row.bool(suspended),
                 buriedUntil: row.optionalInt64(buriedUntil).map(Date.init(unixSeconds:)), ankiModified: row.optionalInt64(ankiModified),
                 ankiID: row.optionalInt64(ankiID), flags: row.int(flags), buriedByUser: row.bool(buriedByUser))
        }
    }
}

enum FieldSeparator {
    static let unit = "\u{1f}"
}

enum NoteTable {
    static let columns = "id, guid, deck_id, kind, field_names, field_values, field_languages, tags, unit_id, position, source, note_type, "
        + "html, anki_note_type, anki_mod, modified_at, anki_id, created_at"
    static let byID = "SELECT \(columns) FROM note WHERE id = ?"
    /// Decodes a query that selects `columns` as they are.
    static let decoder = Decoder(ColumnMap(list: columns))

    struct Decoder {
        let id, guid, deckID, kind, names, values, languages, tags, unitID, position, source, noteType: Int
        let html, ankiNoteType, ankiModified, modified, ankiID, created: Int

        init(_ columns: ColumnMap, prefix: String = "") {
            (id, guid, deckID, kind) = (columns[prefix + "id"], columns[prefix + "guid"], columns[prefix + "deck_id"], columns[prefix + "kind"])
            (names, values, languages) = (columns[prefix + "field_names"], columns[prefix + "field_values"], columns[prefix + "field_languages"])
            (tags, unitID, position) = (columns[prefix + "tags"], columns[prefix + "unit_id"], columns[prefix + "position"])
            (source, noteType) = (columns[prefix + "source"], columns[prefix + "note_type"])
            (html, ankiNoteType) = (columns[prefix + "html"], columns[prefix + "anki_note_type"])
            (ankiModified, modified, ankiID) = (columns[prefix + "anki_mod"], columns[prefix + "modified_at"], columns[prefix + "anki_id"])
            created = columns[prefix + "created_at"]
        }

        func decode(_ row: SQLiteRow) -> Note {
            let names = NoteTable.split(row.text(names)), values = NoteTable.split(row.text(values))
            let languages = NoteTable.languages(row.text(languages), fields: names.count)
            let fields = names.indices.map { index in
                NoteField(name: names[index], value: index < values.count ? values[index] : "", language: languages[index])
            }
            return Note(id: row.int64(id), guid: row.text(guid), deckID: row.int64(deckID), kind: NoteKind(rawValue: row.text(kind)) ?? .basic,
                        fields: fields, tags: Tags.parse(row.text(tags)), unitID: row.optionalInt64(unitID), position: row.int(position),
                        source: row.optionalText(source), noteType: row.optionalText(noteType), html: row.bool(html),
                        ankiNoteTypeID: row.optionalInt64(ankiNoteType), ankiModified: row.optionalInt64(ankiModified),
                        modified: row.int64(modified), ankiID: row.optionalInt64(ankiID), created: row.int64(created))
        }
    }

    /// A column of the note's fields (names, values, languages), one entry per field. Split on
    /// bytes: Foundation's components(separatedBy:) bridges through NSString, and a note is read
    /// for every card shown.
    static func split(_ column: String) -> [String] {
        column.utf8.split(separator: 0x1F, omittingEmptySubsequences: false).map { String(Substring($0)) }
    }

    /// The languages column, one per field of `fields`: nil where none is said.
    static func languages(_ column: String, fields: Int) -> [String?] {
        let languages = split(column)
        return (0..<fields).map { $0 < languages.count && !languages[$0].isEmpty ? languages[$0] : nil }
    }

    /// The fields' names and languages joined, as the note's columns hold them.
    static func namesColumn(_ fields: [NoteField]) -> String { fields.map(\.name).joined(separator: FieldSeparator.unit) }
    static func languagesColumn(_ fields: [NoteField]) -> String { fields.map { $0.language ?? "" }.joined(separator: FieldSeparator.unit) }

    /// The values joined by the field separator, as UTF-8, into a buffer the caller reuses.
    static func appendValues(_ fields: [NoteField], to bytes: inout [UInt8]) {
        for index in fields.indices {
            if index > 0 { bytes.append(0x1F) }
            let start = bytes.count
            bytes.append(contentsOf: fields[index].value.utf8)
            // The separator cannot appear inside a value; it is a control character, so rare.
            for offset in start..<bytes.count where bytes[offset] == 0x1F { bytes[offset] = 0x20 }
        }
    }
}

enum DeckTable {
    static let columns = "id, name, kind, description, preset_id, templates, speak, source, anki_id, limits, anki_json"

    static func decode(_ row: Row) throws -> Deck {
        Deck(id: row["id"], name: row["name"], kind: (row["kind"] as String?).flatMap(NoteKind.init(rawValue:)),
             description: row["description"], presetID: row["preset_id"], templates: try DecodeCache.templates(row["templates"]),
             speak: row["speak"], source: row["source"], ankiID: row["anki_id"],
             limits: try (row["limits"] as String?).map { try JSONDecoder().decode(DeckLimits.self, from: Data($0.utf8)) } ?? DeckLimits(),
             ankiJSON: row["anki_json"])
    }

    /// The limits column: NULL when the deck has none of its own.
    static func limitsColumn(_ limits: DeckLimits) throws -> String? {
        limits.isEmpty ? nil : try StableJSON.string(limits)
    }

    static func templatesColumn(_ templates: [CardTemplate]) throws -> String {
        try StableJSON.string(templates)
    }
}

enum PresetTable {
    static let columns = "id, name, scheduler, new_per_day, reviews_per_day, rollover_hour, bury_siblings, curriculum_gating, anki_config, study_order, bury_new, bury_reviews, bury_interday_learning"

    static func decode(_ row: Row) throws -> Preset {
        var preset = Preset(id: row["id"], name: row["name"], scheduler: try DecodeCache.settings(row["scheduler"]), newPerDay: row["new_per_day"],
                            reviewsPerDay: row["reviews_per_day"], rolloverHour: row["rollover_hour"], burySiblings: row["bury_siblings"],
                            curriculumGating: row["curriculum_gating"])
        preset.ankiConfig = row["anki_config"]
        (preset.buryNew, preset.buryReviews, preset.buryInterdayLearning) = (row["bury_new"], row["bury_reviews"], row["bury_interday_learning"])
        if let order = row["study_order"] as String? { preset.order = try DecodeCache.studyOrder(order) }
        return preset
    }
}

/// Tags are kept as " a b c " so a single LIKE finds a whole tag.
package enum Tags {
    /// Anki's mark is the note tag "marked" (Browse › Mark); Maeil's is a star.
    package static func isMarked(_ tags: [String]) -> Bool {
        tags.contains { $0.caseInsensitiveCompare("marked") == .orderedSame }
    }

    package static func parse(_ text: String) -> [String] {
        text.split(separator: " ").map(String.init)
    }

    package static func column(_ tags: [String]) -> String {
        var bytes: [UInt8] = []
        appendColumn(tags, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The column's text as UTF-8, into a buffer the caller reuses: spaces inside a tag
    /// become underscores, and a tag already there in another case is left out.
    static func appendColumn(_ tags: [String], to bytes: inout [UInt8]) {
        bytes.append(0x20)
        for index in tags.indices where !tags[index].isEmpty {
            // Lists are short: a scan beats a set.
            guard !tags[..<index].contains(where: { sameTag($0, tags[index]) }) else { continue }
            let start = bytes.count
            bytes.append(contentsOf: tags[index].utf8)
            for offset in start..<bytes.count where bytes[offset] == 0x20 { bytes[offset] = 0x5F }
            bytes.append(0x20)
        }
    }

    static func sameTag(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        // Lowercasing keeps the length of ASCII text, so ASCII tags of different lengths differ
        // without the two allocations lowercasing takes.
        if a.utf8.count != b.utf8.count, a.utf8.allSatisfy({ $0 < 0x80 }), b.utf8.allSatisfy({ $0 < 0x80 }) { return false }
        return a.lowercased() == b.lowercased()
    }
}
