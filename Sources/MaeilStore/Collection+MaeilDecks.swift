import Foundation
import GRDB
import MaeilCore

extension Collection {
    /// After a collection was rebuilt from Anki's copy of it (a sync's download), Maeil's own
    /// decks get back from `old` what Anki has no place for: their kind, speech, description and
    /// source, their templates as Maeil wrote them, their curriculum units, and each of their
    /// notes its kind, field languages, unit and place, and its plain text (Anki has it as
    /// HTML; a field edited in Anki is taken as its text). Only notes that were Maeil's own in
    /// `old` and came back under the note type Maeil made for their deck. One transaction;
    /// returns how many notes were given back.
    @discardableResult
    package func restoreMaeilDecks(from old: Collection, now: Date) throws -> Int {
        let oldDecks = try old.decks().filter { $0.kind != nil || $0.speak != nil }
        guard !oldDecks.isEmpty else { return 0 }
        let (oldUnits, oldNotes) = try old.read { db in
            (try Row.fetchAll(db, sql: "SELECT id, deck_id, key, title, position FROM unit"),
             try Row.fetchAll(db, sql: """
                SELECT guid, deck_id, kind, note_type, field_names, field_values, field_languages, html, unit_id, position
                FROM note WHERE anki_note_type IS NULL
                """))
        }
        return try batch(now: now) { writer in
            var restored = 0
            for oldDeck in oldDecks {
                guard var deck = try writer.deck(named: oldDeck.name) else { continue }
                let ankiType = "Maeil: \(oldDeck.name)"
                (deck.kind, deck.speak, deck.source) = (oldDeck.kind, oldDeck.speak, oldDeck.source)
                if deck.description.isEmpty { deck.description = oldDeck.description }
                // Maeil's templates; Anki's kept beside them, so every card still finds its own.
                deck.templates = oldDeck.templates + deck.templates.filter { built in
                    built.noteType != ankiType && !oldDeck.templates.contains { $0.name == built.name }
                }
                try writer.update(deck)
                var units: [Int64: (id: Int64, position: Int)] = [:]
                for row in oldUnits where row["deck_id"] == oldDeck.id {
                    let position: Int = row["position"]
                    units[row["id"]] = (try writer.saveUnit(deckID: deck.id, key: row["key"], title: row["title"], position: position), position)
                }
                let byGUID = try writer.notesByGUID(deckID: deck.id)
                for row in oldNotes where row["deck_id"] == oldDeck.id {
                    guard let built = byGUID[row["guid"] as String], built.noteType == ankiType else { continue }
                    let names = (row["field_names"] as String).components(separatedBy: "\u{1f}")
                    let oldValues = (row["field_values"] as String).components(separatedBy: "\u{1f}")
                    var ankiValues: [String: String] = [:]
                    for field in built.fields where ankiValues[field.name] == nil { ankiValues[field.name] = field.value }
                    let wasHTML: Bool = row["html"]
                    let values = names.enumerated().map { index, name in
                        let old = index < oldValues.count ? oldValues[index] : ""
                        guard let came = ankiValues[name] else { return old }
                        if wasHTML { return came }
                        return came == FieldText.html(fromPlain: old) ? old : FieldText.plainText(fromHTML: came)
                    }
                    let unit = (row["unit_id"] as Int64?).flatMap { units[$0] }
                    try writer.db.execute(sql: """
                        UPDATE note SET kind = ?, note_type = ?, field_names = ?, field_values = ?, field_languages = ?, html = ?,
                            anki_note_type = NULL, unit_id = ?, position = ? WHERE id = ?
                        """, arguments: [row["kind"] as String, row["note_type"] as String?, row["field_names"] as String,
                                         values.joined(separator: "\u{1f}"), row["field_languages"] as String, wasHTML, unit?.id,
                                         row["position"] as Int, built.id])
                    try writer.db.execute(sql: "UPDATE card SET unit_position = ? WHERE note_id = ?", arguments: [unit?.position, built.id])
                    restored += 1
                }
            }
            return restored
        }
    }
}
