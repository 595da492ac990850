import Foundation
import MaeilCore
import MaeilDecks
import MaeilPrograms
import MaeilStore

/// Reads decks out of a collection in the shape Anki keeps them, for the writers (Anki
/// packages and text). A note that came from Anki goes back under its own note type, its
/// HTML as it was; a note of a Maeil deck goes under a note type made from the deck's fields
/// and templates (a real cloze type for cloze decks), its text as HTML.
package struct Exporter {
    package let collection: Collection

    package init(collection: Collection) { self.collection = collection }

    package func export(_ decks: [Deck], now: Date) throws -> ExportCollection {
        let stored = try collection.ankiNoteTypes()
        var types: [Int64: AnkiNoteType] = [:]
        var media: [String: URL] = [:]
        let mediaFolder = URL(fileURLWithPath: collection.path).deletingLastPathComponent().appendingPathComponent("media")
        var position = 0
        var exported: [ExportDeck] = []
        for deck in decks {
            let preset = try collection.preset(id: deck.presetID)
            let (notes, cardsByNote, logs, ankiData) = try collection.deckContents(deckID: deck.id)
            // Maeil's own notes (added or imported from text into a deck that came from Anki, too):
            // a note type of their fields and templates alone, or they would go to Anki with
            // the Anki notes' fields first and empty.
            let ownNotes = notes.filter { note in note.ankiNoteTypeID.flatMap { stored[$0] } == nil }
            let own = Self.noteType(for: deck, notes: ownNotes,
                                    usedTemplates: Set(ownNotes.flatMap { cardsByNote[$0.id] ?? [] }.map(\.template)))
            let fsrs = FSRS(parameters: preset.scheduler.fsrsParameters)
            var exportedNotes: [ExportNote] = []
            exportedNotes.reserveCapacity(notes.count)
            for note in notes {
                let type = note.ankiNoteTypeID.flatMap { stored[$0] } ?? own
                types[type.id] = type
                var byName: [String: String] = [:]
                for field in note.fields where byName[field.name] == nil { byName[field.name] = field.value }
                let values = type.fields.map { name in
                    let value = byName[name] ?? ""
                    return note.html ? value : FieldText.html(fromPlain: value)
                }
                for value in values {
                    for name in FieldText.images(value, html: true) + FieldText.sounds(value, html: true) where media[name] == nil {
                        let file = mediaFolder.appendingPathComponent(name)
                        if FileManager.default.fileExists(atPath: file.path) { media[name] = file }
                    }
                }
                let cards = (cardsByNote[note.id] ?? []).map { card -> ExportCard in
                    position += 1
                    let history = logs[card.id] ?? []
                    // When Maeil last changed the card; Anki's own time for one untouched here.
                    let changed = history.last { $0.kind != .imported }.map { Int64($0.time.timeIntervalSince1970) } ?? 0
                    var exported = ExportCard(
                        ordinal: Self.ordinal(of: card, in: type), state: card.state, suspended: card.suspended,
                        buried: card.buriedUntil.map { $0 > now } ?? false, position: position,
                        modified: max(card.ankiModified ?? 0, changed, note.ankiModified == nil ? note.modified : 0), history: history,
                        desiredRetention: card.state.memory == nil ? nil : preset.scheduler.desiredRetention,
                        decay: card.state.memory == nil ? nil : fsrs.decay, ankiID: card.ankiID, flags: card.flags,
                        buriedByUser: card.buriedByUser)
                    (exported.customData, exported.originalPosition) = (ankiData[card.id]?.customData, ankiData[card.id]?.originalPosition)
                    return exported
                }
                // A star is Anki's "marked" note: the tag Anki's Browse › Mark sets.
                let starred = (cardsByNote[note.id] ?? []).contains(where: \.starred)
                let tags = starred && !Tags.isMarked(note.tags) ? note.tags + ["marked"] : note.tags
                exportedNotes.append(ExportNote(guid: note.guid, noteTypeID: type.id, values: values, tags: tags,
                                                modified: max(note.ankiModified ?? 0, note.modified), cards: cards, ankiID: note.ankiID))
            }
            // A description from Anki is its HTML; Maeil's own is plain text.
            exported.append(ExportDeck(name: deck.name, preset: preset, notes: exportedNotes, ankiID: deck.ankiID,
                                       description: deck.ankiID == nil ? FieldText.html(fromPlain: deck.description) : deck.description))
        }
        var collection = ExportCollection(noteTypes: types.values.sorted { $0.id < $1.id }, decks: exported,
                                          media: media.keys.sorted().map { ($0, media[$0]!) })
        for deck in try self.collection.decks() { if let id = deck.ankiID { collection.deckAnkiIDs[deck.name] = id } }
        return collection
    }

    /// Anki's "ord" of a card: its template's place in the note type, or its cloze number − 1.
    static func ordinal(of card: Card, in type: AnkiNoteType) -> Int {
        if type.isCloze { return max(card.ordinal - 1, 0) }
        // Maeil named templates after Anki's, "card N" when Anki's had no name, and added the
        // note type's name where two note types in one deck shared a template name.
        if let index = type.templates.firstIndex(where: { $0.name == card.template || "\($0.name) (\(type.name))" == card.template }) {
            return index
        }
        if let index = type.templates.firstIndex(where: { card.template.hasPrefix("\($0.name) (\(type.name) ") && card.template.hasSuffix(")") }) {
            return index
        }
        if card.template.hasPrefix("card "), let number = Int(card.template.dropFirst(5)), number >= 1 { return number - 1 }
        return 0
    }

    /// The note type a Maeil deck's notes go to Anki under: its fields and templates, an id that
    /// stays the same from one export to the next, so Anki updates its notes.
    static func noteType(for deck: Deck, notes: [Note], usedTemplates: Set<String>) -> AnkiNoteType {
        // The deck's templates of no Anki note type: those its Maeil notes' cards were made from.
        let own = deck.templates.filter { $0.noteType == nil }
        var deck = deck
        if !own.isEmpty { deck.templates = own }
        // Only templates some card was made from: Anki's Check Database makes a card of every
        // other template with a front for every note (a text note in a deck from Anki had three).
        let used = deck.templates.filter { usedTemplates.contains($0.name) }
        if !used.isEmpty { deck.templates = used }
        var fields: [String] = []
        var seen = Set<String>()
        for note in notes { for field in note.fields where seen.insert(field.name).inserted { fields.append(field.name) } }
        if fields.isEmpty { fields = deck.templates.flatMap { $0.front + $0.back }.filter { seen.insert($0).inserted } }
        if fields.isEmpty { fields = ["Front", "Back"] }
        let id = 1_000_000_000_000 + Int64(UInt64(StableHash.hex("maeil note type\u{1f}" + deck.name), radix: 16)! % 500_000_000_000)
        let cloze = deck.kind == .cloze || deck.templates.contains { $0.blanks != nil && deck.kind == .cloze }
        func braces(_ names: [String]) -> String { names.map { "{{\($0)}}" }.joined(separator: "<br>") }
        let templates: [AnkiNoteType.Template]
        if cloze, let template = deck.templates.first, let blanks = template.blanks {
            templates = [.init(name: "Cloze", question: "{{cloze:\(blanks)}}", answer: "{{cloze:\(blanks)}}<br>" + braces(template.back))]
        } else {
            templates = deck.templates.map { template in
                var front = template.front
                if front.isEmpty, let blanks = template.blanks { front = [blanks] }
                let question = braces(front) + (template.typed.map { "<br>{{type:\($0)}}" } ?? "")
                return .init(name: template.name, question: question, answer: "{{FrontSide}}<hr id=answer>" + braces(template.back))
            }
        }
        let modified = notes.map(\.modified).max() ?? 0
        // Only what differs from Anki's defaults: the package writer completes a note type's JSON
        // (fields, templates, LaTeX, requirements) from the type itself.
        let model: [String: Any] = ["css": ".card { font-family: arial; font-size: 24px; text-align: center; }"]
        let json = (try? JSONSerialization.data(withJSONObject: model, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return AnkiNoteType(id: id, name: "Maeil: \(deck.name)", isCloze: cloze, fields: fields, templates: templates, modified: modified,
                            legacyJSON: json)
    }
}

/// `maeil export`: decks written as an Anki text file (`txt`) or package (`apkg`,
/// `apkg-legacy`, `colpkg`).
/// An export that cannot start, in one sentence.
package struct ExportProblem: Error, CustomStringConvertible, Sendable {
    package let description: String
}

package enum ExportFile {
    package static let formats = ["apkg", "apkg-legacy", "colpkg", "txt"]

    /// The format asked for, else the one the file's name ends with, else apkg.
    package static func format(_ given: String?, out: String) -> String {
        given ?? formats.first { out.lowercased().hasSuffix(".\($0)") } ?? "apkg"
    }

    @discardableResult
    package static func write(_ decks: [Deck], from collection: Collection, to url: URL, format: String, now: Date,
                             timeZone: TimeZone) throws -> ExportCollection {
        // Said before any work, in words: writing into it would fail with Foundation's own.
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ExportProblem(description: "there is no folder \(TerminalText.visible(folder)) to write \(TerminalText.visible(url.lastPathComponent)) into; make it first (mkdir -p '\(TerminalText.visible(folder).replacingOccurrences(of: "'", with: "'\\''"))')")
        }
        let exported = try Exporter(collection: collection).export(decks, now: now)
        if format == "txt" {
            // Not Foundation's .atomic: its temporary file has no process id, and a kill left it behind.
            try AtomicFile.write(AnkiTextWriter.text(exported), to: url.path)
        } else {
            try AnkiPackageWriter.write(exported, to: url, format: format == "apkg-legacy" ? .legacy : .current, now: now,
                                        clock: clock(for: exported, timeZone: timeZone))
        }
        return exported
    }

    /// Review due days are counted in the first deck's study days.
    package static func clock(for exported: ExportCollection, timeZone: TimeZone) -> DayClock {
        DayClock(timeZone: timeZone, rolloverHour: exported.decks.first.map { $0.preset.rolloverHour } ?? 4)
    }
}
