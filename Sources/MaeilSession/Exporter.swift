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

    /// Hands `body` the decks as a source the writers read note by note, all of it read in
    /// one read transaction: an export is one state of the collection even while a session
    /// answers, and no deck is held whole. `marks`: the source also reads what a sync must look
    /// at again since its base (`dirty`); `onlyMarked`: it hands on only those notes (the
    /// decks, note types and ids are as a whole export's).
    package func streaming<T>(_ decks: [Deck], now: Date, timeZone: TimeZone, marks: Bool = false, onlyMarked: Bool = false,
                              _ body: (inout StoreExportSource) throws -> T) throws -> T {
        let presets = try decks.map { try collection.preset(id: $0.presetID) }
        var deckAnkiIDs: [String: Int64] = [:]
        for deck in try collection.decks() { if let id = deck.ankiID { deckAnkiIDs[deck.name] = id } }
        let mediaFolder = Self.mediaFolder(of: collection)
        return try collection.readingExport { reading in
            var source = try StoreExportSource(reading: reading, decks: zip(decks, presets).map { $0 }, deckAnkiIDs: deckAnkiIDs,
                                               mediaFolder: mediaFolder, now: now, timeZone: timeZone, marks: marks, onlyMarked: onlyMarked)
            return try body(&source)
        }
    }

    /// Where the pictures and sounds of a collection's notes are.
    static func mediaFolder(of collection: Collection) -> URL {
        URL(fileURLWithPath: collection.path).deletingLastPathComponent().appendingPathComponent("media")
    }

    /// The decks held whole: for tests and benchmarks that look at every note.
    package func export(_ decks: [Deck], now: Date, timeZone: TimeZone) throws -> ExportCollection {
        try streaming(decks, now: now, timeZone: timeZone) { source in
            var exported: [ExportDeck] = []
            for index in source.decks.indices {
                var deck = source.decks[index]
                try source.forEachNote(ofDeck: index, history: true) { note, _ in deck.notes.append(note) }
                exported.append(deck)
            }
            var collection = ExportCollection(noteTypes: source.noteTypes, decks: exported, media: source.media)
            collection.deckAnkiIDs = source.deckAnkiIDs
            return collection
        }
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
    static func noteType(for deck: Deck, notes: OwnNotes) -> AnkiNoteType {
        // The deck's templates of no Anki note type: those its Maeil notes' cards were made from.
        let own = deck.templates.filter { $0.noteType == nil }
        var deck = deck
        if !own.isEmpty { deck.templates = own }
        // Only templates some card was made from: Anki's Check Database makes a card of every
        // other template with a front for every note (a text note in a deck from Anki had three).
        let used = deck.templates.filter { notes.templates.contains($0.name) }
        if !used.isEmpty { deck.templates = used }
        var fields = notes.fields
        var seen = Set(fields)
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
        let modified = notes.modified
        // Only what differs from Anki's defaults: the package writer completes a note type's JSON
        // (fields, templates, LaTeX, requirements) from the type itself.
        let model: [String: Any] = ["css": ".card { font-family: arial; font-size: 24px; text-align: center; }"]
        let json = (try? JSONSerialization.data(withJSONObject: model, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return AnkiNoteType(id: id, name: "Maeil: \(deck.name)", isCloze: cloze, fields: fields, templates: templates, modified: modified,
                            legacyJSON: json)
    }
}

/// The pictures and sounds fields name, as Anki's HTML, that a media folder holds: each once,
/// by name. What an export puts in its package beside the collection.
struct MediaFound {
    let folder: URL
    private var files: [String: URL] = [:]

    init(folder: URL) { self.folder = folder }

    mutating func add(namedIn value: String) {
        for name in FieldText.images(value, html: true) + FieldText.sounds(value, html: true) where files[name] == nil {
            let file = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: file.path) { files[name] = file }
        }
    }

    /// By name.
    var sorted: [(name: String, file: URL)] { files.keys.sorted().map { ($0, files[$0]!) } }
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
                             timeZone: TimeZone) throws -> ExportSummary {
        // Said before any work, in words: writing into it would fail with Foundation's own.
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            // The folder whole, never shortened: the command must make the folder it names.
            let named = TerminalText.visible(folder, limit: Int(PATH_MAX))
            throw ExportProblem(description: "there is no folder \(named) to write \(TerminalText.visible(url.lastPathComponent)) into; make it first (mkdir -p '\(named.replacingOccurrences(of: "'", with: "'\\''"))')")
        }
        // The whole collection, from the file the last one was made of where the collection can keep it.
        if format == "colpkg", !collection.isReadOnly, Set(decks.map(\.id)) == Set(try collection.decks().map(\.id)) {
            return try ExportBase(collection: collection).writePackage(to: url, now: now, timeZone: timeZone)
        }
        return try Exporter(collection: collection).streaming(decks, now: now, timeZone: timeZone) { source in
            // Not Foundation's .atomic: its temporary file has no process id, and a kill left it behind.
            if format == "txt" { return try AnkiTextWriter.write(&source, to: url.path) }
            return try AnkiPackageWriter.write(&source, to: url, format: format == "apkg-legacy" ? .legacy : .current, now: now,
                                               clock: clock(for: source.decks, timeZone: timeZone), deckPackage: format != "colpkg")
        }
    }

    /// Review due days are counted in the first deck's study days.
    package static func clock(for decks: [ExportDeck], timeZone: TimeZone) -> DayClock {
        DayClock(timeZone: timeZone, rolloverHour: decks.first.map { $0.preset.rolloverHour } ?? 4)
    }
}
