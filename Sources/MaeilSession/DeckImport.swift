import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore

/// One deck of an import as its events arrive: the deck is created or updated when it is
/// announced, templates are added as note types turn up, and each chunk of notes is added,
/// updated or left alone.
struct DeckImport {
    private(set) var deck: Deck
    /// What Anki counted of today's answers in the deck, as the file says.
    let ankiAnsweredToday: AnkiAnsweredToday?
    private(set) var summary: ImportSummary.DeckSummary
    private let curriculum: Bool
    /// The deck's notes as the import began, by guid: the file each came from. Each note is
    /// read when the file has it, and only then: a package imported again reads none of those
    /// it has as they are here (`NoteDraft.asStored`).
    private let existing: [String: String?]
    /// The files this import's notes say they come from ("items.tsv", "Korean.apkg"): only a
    /// note of the deck that came from one of them and is not in it now is "no longer in the
    /// file" (a CSV added to a deck from Anki lacks every Anki note, and says nothing of them).
    private var originFiles = Set<String>()
    private var lastOrigin: String?

    static func originFile(_ origin: String?) -> String? {
        origin.flatMap { $0.split(separator: ":", maxSplits: 1).first.map(String.init) }
    }
    private let base: Int
    private var inserter: NoteInserter
    private var seen = Set<String>()
    /// Notes of this deck so far, in file order.
    private var count = 0

    init(_ imported: ImportedDeck, writer: CollectionWriter) throws {
        var created = false
        if var existing = try writer.deck(named: imported.name) {
            existing.templates = Self.merged(existing.templates, imported.templates)
            existing.description = imported.description.isEmpty ? existing.description : imported.description
            existing.speak = imported.speak ?? existing.speak
            existing.kind = imported.kind ?? existing.kind
            existing.ankiID = existing.ankiID ?? imported.ankiID
            // A deck's own limits come with it once; limits set here since are kept.
            if existing.limits.isEmpty { existing.limits = imported.limits }
            existing.ankiJSON = imported.ankiJSON ?? existing.ankiJSON
            try writer.update(existing)
            deck = existing
        } else {
            deck = try Self.create(imported, writer: writer)
            created = true
        }
        summary = ImportSummary.DeckSummary(name: deck.name, created: created)
        if !created, let file = imported.preset?.scheduler.kind, try writer.preset(id: deck.presetID).scheduler.kind != file {
            summary.fileScheduler = file.rawValue
        }
        for (index, unit) in imported.units.enumerated() {
            _ = try writer.saveUnit(deckID: deck.id, key: unit.key, title: unit.title, position: index + 1)
        }
        curriculum = !imported.units.isEmpty
        ankiAnsweredToday = imported.ankiAnsweredToday
        existing = try writer.noteSources(deckID: deck.id)
        // Curriculum decks order notes by their place in the file; other imports go after what is there.
        base = curriculum ? 0 : try writer.nextNotePosition(deckID: deck.id)
        inserter = try writer.noteInserter(deck: deck)
        if !created, let file = imported.preset { try takeAnkisOptions(file, writer: writer) }
    }

    /// A deck the collection does not have, made as the file has it. Anki's decks share options:
    /// a deck joins the preset made from the same Anki options (`presetFor`).
    static func create(_ imported: ImportedDeck, writer: CollectionWriter) throws -> Deck {
        let (shared, new) = try presetFor(imported, writer: writer)
        return try writer.createDeck(name: imported.name, kind: imported.kind, description: imported.description, templates: imported.templates,
                                     preset: new, presetID: shared, speak: imported.speak, source: imported.source,
                                     ankiID: imported.ankiID, limits: imported.limits, ankiJSON: imported.ankiJSON)
    }

    /// The preset a deck from a file joins: the one made from the same Anki options where there is
    /// one (`shared`); else a new one from the file's options (`new`, not saved yet), under Anki's
    /// name for them, for the decks after it to share; for options that are not Anki's, one
    /// named after the deck.
    static func presetFor(_ imported: ImportedDeck, writer: CollectionWriter) throws -> (shared: Int64?, new: Preset?) {
        guard var preset = imported.preset else { return (nil, nil) }
        preset.id = nil
        guard let ankiID = preset.ankiConfigID else {
            preset.name = imported.name
            return (nil, preset)
        }
        if let shared = try writer.presetID(ankiConfigID: ankiID) { return (shared, nil) }
        preset.name = try writer.freePresetName(preset.name.isEmpty ? imported.name : preset.name)
        return (nil, preset)
    }

    /// Options Anki changed since they came (its "mod" is later), on a deck whose preset holds
    /// those same options: taken, unless they were changed here too (the preset no longer is what
    /// Anki's options gave when they came), which keeps these and says so. A scheduler the file
    /// and the deck do not share is said by `fileScheduler` and never switched here.
    private mutating func takeAnkisOptions(_ file: Preset, writer: CollectionWriter) throws {
        let stored = try writer.preset(id: deck.presetID)
        guard let id = file.ankiConfigID, stored.ankiConfigID == id, let fileJSON = file.ankiConfig, let storedJSON = stored.ankiConfig,
              AnkiPackage.modified(ankiConfig: fileJSON) > AnkiPackage.modified(ankiConfig: storedJSON),
              file.scheduler.kind == stored.scheduler.kind else { return }
        func settings(_ preset: Preset) -> Preset {
            var preset = preset
            (preset.id, preset.name, preset.ankiConfig) = (nil, "", nil)
            return preset
        }
        let asItCame = AnkiPackage.preset(ankiConfig: storedJSON, fsrs: stored.scheduler.kind == .fsrs)
        guard let asItCame, settings(asItCame) == settings(stored) else {
            summary.optionsKept = true
            return
        }
        var taken = file
        (taken.id, taken.name) = (stored.id, stored.name)
        _ = try writer.save(taken)
        summary.optionsTaken = true
    }

    /// Notes that came marked from Anki: their cards are starred once they are written.
    private var markedNotes: [Int64] = []

    /// Whether the deck held notes before this import.
    var holdsNotes: Bool { !existing.isEmpty }

    /// The file's templates replace ones of the same name; others the learner added stay.
    static func merged(_ current: [CardTemplate], _ added: [CardTemplate]) -> [CardTemplate] {
        var templates = current
        for template in added {
            if let index = templates.firstIndex(where: { $0.name == template.name }) {
                templates[index] = template
            } else {
                templates.append(template)
            }
        }
        return templates
    }

    /// The names a file gave its templates, by the names they have in this deck.
    private var templateNames: [String: String] = [:]
    /// Per note type: how many of its templates the file has handed on so far.
    private var templatesSeen: [String: Int] = [:]

    /// A template is one note type's n-th, whatever a file calls it: a package names a
    /// template "Card 1" or "Card 1 (Basic)" by which note type it met first in the deck, and
    /// that order changes from one package to the next. A template of a note type the deck
    /// has takes that template's name here; a new one gets a name no other note type's has.
    private mutating func identified(_ templates: [CardTemplate]) -> [CardTemplate] {
        templates.map { template in
            guard let type = template.noteType else { return template }
            let index = templatesSeen[type, default: 0]
            templatesSeen[type] = index + 1
            var named = template
            let ofType = deck.templates.filter { $0.noteType == type }
            if index < ofType.count {
                named.name = ofType[index].name
            } else if deck.templates.contains(where: { $0.name == template.name && $0.noteType != type }) {
                var candidate = "\(template.name) (\(type))"
                while deck.templates.contains(where: { $0.name == candidate }) { candidate += "'" }
                named.name = candidate
            }
            if named.name != template.name { templateNames[template.name] = named.name }
            return named
        }
    }

    mutating func add(_ templates: [CardTemplate], writer: CollectionWriter) throws {
        let templates = identified(templates)
        // A deck that was already here takes templates only when they are needed: a text file
        // names no note types Maeil knows, and its rows for notes already here add no cards.
        if !summary.created {
            pendingTemplates += templates
            return
        }
        try merge(templates, writer: writer)
    }

    private mutating func merge(_ templates: [CardTemplate], writer: CollectionWriter) throws {
        try inserter.flush()
        deck.templates = Self.merged(deck.templates, templates)
        try writer.update(deck)
        inserter = try writer.noteInserter(deck: deck)
    }

    /// Templates a deck that was already here was given, until a note needs them.
    private var pendingTemplates: [CardTemplate] = []

    /// `cardDecks`: the decks of the import so far, here, by Anki's id (`NoteInserter.cardDecks`).
    mutating func add(_ notes: [NoteDraft], cardDecks: [Int64: Int64] = [:], writer: CollectionWriter, noteWritten: () -> Void) throws {
        inserter.cardDecks = cardDecks
        // A package or a deck file says what the deck's templates are now: taken at once.
        if !pendingTemplates.isEmpty, notes.contains(where: { !$0.fieldsByPosition }) {
            try merge(pendingTemplates, writer: writer)
            pendingTemplates = []
        }
        for var item in notes {
            if !templateNames.isEmpty {
                for card in item.cards.indices { item.cards[card].template = templateNames[item.cards[card].template] ?? item.cards[card].template }
            }
            let index = count
            count += 1
            if !existing.isEmpty {
                seen.insert(item.guid)
                // A package's notes that are here as it has them all say the same file.
                if item.origin != lastOrigin, let file = Self.originFile(item.origin) { originFiles.insert(file) }
                lastOrigin = item.origin
            }
            if item.asStored {
                summary.unchanged += 1
                noteWritten()
                continue
            }
            let stored = existing[item.guid] == nil ? nil : try writer.note(guid: item.guid).flatMap { $0.deckID == deck.id ? $0 : nil }
            var draft = item
            draft.position = curriculum ? index : (stored?.position ?? base + index)
            if stored == nil, item.fieldsByPosition, !pendingTemplates.isEmpty, try writer.note(guid: item.guid) == nil {
                // A note new to the collection, from a text file: its templates are needed now.
                try merge(pendingTemplates, writer: writer)
                pendingTemplates = []
            }
            // Guids are unique in the whole collection. A taken one belongs to a note in another
            // deck, or to one earlier in this import (twice in a file, or in another deck of it):
            // the insert then does nothing and the row updates that note, as a second import would.
            if stored == nil, !item.cardsKnown, let added = try inserter.add(draft, listingCards: false) {
                if item.ankiModified != nil, Tags.isMarked(item.tags) { markedNotes.append(added.noteID) }
                summary.added += 1
                summary.cardsWithHistory += added.scheduled
                noteWritten()
                continue
            }
            // Cards still waiting to be written must be in the table before a note's cards are read.
            try inserter.flush()
            guard var note = try stored ?? writer.note(guid: item.guid) else {
                // The reader was told this note's cards are here (`KnownAnkiCards`), in this transaction.
                if item.cardsKnown { throw KnownNoteMissing(guid: item.guid) }
                noteWritten()
                continue
            }
            let item = item.fieldsByPosition ? Self.positional(item, onto: note) : item
            // A text file's row says nothing of units or order: the note keeps its own.
            let unitID = item.fieldsByPosition ? note.unitID : inserter.unitID(draft.unit)
            if item.fieldsByPosition { draft.position = note.position }
            // A note in another deck has its place there; a move (below) gives it one here.
            let differs = note.fields != item.fields || Set(note.tags) != Set(item.tags) || note.unitID != unitID
                || (note.position != draft.position && note.deckID == deck.id) || note.kind != item.kind || note.noteType != item.noteType
                || note.html != item.html || (item.ankiNoteTypeID != nil && note.ankiNoteTypeID != item.ankiNoteTypeID)
            // Anki's "keep current" leaves a stored note exactly as it is; a package's note
            // replaces one only when it changed there after it last changed here, as Anki merges.
            let olderThanHere = !item.fieldsByPosition && item.ankiModified.map { $0 <= note.modified } == true
            // The same note, met first in a text file (Anki's export with its guids): only what
            // Anki knows it by is new, which it takes, changing nothing a learner sees.
            let sameText = note.fields == item.fields && Set(note.tags) == Set(item.tags) && note.unitID == unitID
            if differs, sameText, item.ankiNoteTypeID != nil, note.ankiNoteTypeID == nil, !item.keepExisting {
                note.noteType = item.noteType
                note.html = item.html
                note.ankiNoteTypeID = item.ankiNoteTypeID
                note.ankiModified = item.ankiModified
                if note.deckID == deck.id { try inserter.update(note) } else { try writer.updateNote(note) }
                summary.unchanged += 1
            } else if differs, olderThanHere, !item.keepExisting {
                summary.kept += 1
            } else if differs, !item.keepExisting {
                note.fields = item.fields
                note.tags = item.tags
                note.unitID = unitID
                note.position = draft.position
                note.kind = item.kind
                note.noteType = item.noteType
                note.html = item.html
                if let type = item.ankiNoteTypeID { note.ankiNoteTypeID = type }
                if let modified = item.ankiModified { note.ankiModified = modified }
                if note.deckID == deck.id { try inserter.update(note) } else { try writer.updateNote(note) }
                // Marked or unmarked in Anki since: the star follows.
                if item.ankiModified != nil {
                    try inserter.flush()
                    try writer.setStarred(noteID: note.id, Tags.isMarked(item.tags))
                }
                summary.updated += 1
            } else {
                summary.unchanged += 1
            }
            if note.deckID != deck.id, try Self.movedInAnki(item.cards, note: note, writer: writer) {
                try inserter.flush()
                let (cards, apart) = try Self.sameCards(item.cards, of: note, cardDecks: cardDecks, writer: writer)
                try writer.move(noteID: note.id, toDeck: deck.id, position: draft.position, cards: cards, apart: apart)
                (note.deckID, note.position) = (deck.id, draft.position)
                summary.moved += 1
            }
            if !item.cards.isEmpty {
                if note.deckID == deck.id { summary.cardsWithHistory += try inserter.addAnkiCards(item.cards, to: note) }
                summary.cardsWithHistory += try Self.applyScheduling(item.cards, to: note, ankiID: item.ankiID, cardDecks: cardDecks, writer: writer)
            }
            noteWritten()
        }
    }

    /// A text file's row for a note already here: its values in the note's own fields, in
    /// order; HTML that only stands for plain text (Maeil's own export) read back as the text;
    /// the note's kind and note type kept.
    static func positional(_ item: NoteDraft, onto note: Note) -> NoteDraft {
        var draft = item
        let values = item.fields.map(\.value)
        let plain = item.html && !note.html && values.allSatisfy { FieldText.html(fromPlain: FieldText.plainText(fromHTML: $0)) == $0 }
        draft.fields = note.fields.enumerated().map { index, field in
            var field = field
            if index < values.count { field.value = plain ? FieldText.plainText(fromHTML: values[index]) : values[index] }
            return field
        }
        draft.html = plain ? false : item.html
        draft.kind = note.kind
        draft.noteType = note.noteType
        draft.ankiNoteTypeID = note.ankiNoteTypeID
        return draft
    }

    /// An Anki note a package has in another deck than here, with a card Anki changed since it
    /// came (Anki dates a card's move): moved in Anki, so it moves here. Matched by Anki's own
    /// card ids, so a note of another collection that shares a guid never moves.
    static func movedInAnki(_ cards: [CardDraft], note: Note, writer: CollectionWriter) throws -> Bool {
        guard note.ankiID != nil else { return false }
        let stored = try writer.cards(noteID: note.id)
        return cards.contains { imported in
            guard let id = imported.ankiID, let modified = imported.ankiModified,
                  let card = stored.first(where: { $0.ankiID == id }) else { return false }
            return modified > (card.ankiModified ?? 0)
        }
    }

    /// The note's cards that are the package's, by Anki's card id, with the package's template
    /// names; and those the package keeps in a deck of their own, with that deck here (`cardDecks`).
    static func sameCards(_ cards: [CardDraft], of note: Note, cardDecks: [Int64: Int64], writer: CollectionWriter) throws
        -> (cards: [(cardID: Int64, template: String)], apart: [Int64: Int64]) {
        let stored = try writer.cards(noteID: note.id)
        var apart: [Int64: Int64] = [:]
        let same = cards.compactMap { imported -> (cardID: Int64, template: String)? in
            guard let card = stored.first(where: { $0.ankiID != nil && $0.ankiID == imported.ankiID }) else { return nil }
            apart[card.id] = imported.ankiDeckID.flatMap { cardDecks[$0] }
            return (card.id, imported.template)
        }
        return (same, apart)
    }

    /// Writes the new cards still waiting (several go in one statement).
    mutating func flushNewCards() throws {
        try inserter.flush()
    }

    /// Writes what is still waiting; returns the deck's summary, with the notes no longer in the
    /// file unless `listingGone` is false (a part of a file, whose other notes are not gone).
    mutating func finish(writer: CollectionWriter, listingGone: Bool = true) throws -> ImportSummary.DeckSummary {
        try inserter.flush()
        for note in markedNotes { try writer.setStarred(noteID: note, true) }
        var summary = summary
        guard listingGone else { return summary }
        summary.gone = try existing.filter { guid, source in
            guard !seen.contains(guid), source == nil || Self.originFile(source).map(originFiles.contains) == true else { return false }
            return try writer.note(guid: guid)?.deckID == deck.id  // not moved to another deck by this import
        }.keys.sorted()
        return summary
    }

    /// An Anki card's row over the same card here, as Anki merges: its log rows Maeil does not
    /// have yet are added (never one twice), and its state, suspension, burial, flag and data
    /// replace Maeil's only when it changed in Anki after it last changed here (`taking`: where
    /// a sync's merge already decided which row is the newer). Answers whether it gave a card
    /// that had been studied a state of Anki's.
    /// `deckID`: the deck here the file keeps the card in, where that is not its note's.
    static func mergeAnkiCard(_ imported: CardDraft, into card: Card, deckID: Int64?, writer: CollectionWriter, taking: Bool? = nil) throws -> Bool {
        guard let modified = imported.ankiModified else { return false }
        // Unchanged in Anki since it came: Anki changes a card's time with every answer,
        // reset and due date, so there is nothing new to merge.
        if taking == nil, card.ankiModified == modified { return false }
        var known = try writer.ankiLogIDs(cardID: card.id)
        let newer = try taking ?? (modified > writer.lastChange(cardID: card.id))
        // A sync brings a card's whole log back, this side's answers in it.
        if taking != nil { known.formUnion(try ownAnswersComeBack(imported.history, cardID: card.id, known: known, writer: writer)) }
        var loggedAState = false
        for var entry in imported.history where entry.ankiID.map({ !known.contains($0) }) ?? true {
            // A card that keeps Maeil's state ends its log with the entry that recorded it:
            // Anki's rows added after it keep Anki's columns, not a state of their own.
            if !newer { entry.after = nil }
            loggedAState = loggedAState || entry.after != nil
            try writer.appendLog(entry, cardID: card.id, deckID: card.deckID)
        }
        guard newer else { return false }
        // Anki's rows say a state only roughly (a reset row says "new" with no counts): a card
        // that takes Anki's state ends its log with the entry that records it, even where it
        // had that state already (forgotten here, then in Anki too).
        let takesState = imported.state != card.state || loggedAState
        let data = AnkiCardData(customData: imported.ankiCustomData, originalPosition: imported.ankiOriginalPosition,
                                position: imported.ankiPosition, retention: imported.ankiRetention)
        try writer.takeAnkiRow(cardID: card.id, AnkiCardRow(modified: modified, suspended: imported.suspended, buriedUntil: imported.buriedUntil,
                                                            buriedByUser: imported.buriedByUser, flags: imported.flags, data: data, deckID: deckID),
                               state: takesState ? imported.state : nil)
        return imported.state != card.state && imported.state != .new
    }

    /// Answers given here (no Anki id yet) found in `history`, among the rows not `known`, as
    /// Anki's file has them: with the button, kind and factor Maeil wrote for them, under their time in
    /// milliseconds, or the next free one after it where answers shared a millisecond (the
    /// earliest such row is taken: another with the same columns is the same answer to Anki, so
    /// either way every row is there once). Each takes its Anki id; answers those ids. Throws
    /// `SyncTakeProblem` where one is not found: the caller takes the whole merge.
    static func ownAnswersComeBack(_ history: [ReviewLogEntry], cardID: Int64, known: Set<Int64>, writer: CollectionWriter) throws -> Set<Int64> {
        let own = try writer.reviewLog(cardID: cardID, ownOnly: true).filter { AnkiPackageWriter.revlog($0.entry) != nil }
        var found = Set<Int64>()
        for row in own {
            let match = history.compactMap { entry -> Int64? in
                guard let id = entry.ankiID, let anki = entry.anki, !found.contains(id), !known.contains(id),
                      Self.isRow(id: id, ease: Int(anki.ease), factor: Int(anki.factor), type: Int(anki.type), of: row.entry) else { return nil }
                return id
            }.min()
            guard let id = match else { throw SyncTakeProblem() }
            try writer.adoptLogID(row.id, ankiID: id)
            found.insert(id)
        }
        return found
    }

    /// Whether a row of Anki's file is an answer given here as an export wrote it: under its time
    /// in milliseconds, or a later one where answers shared a millisecond (up to five minutes),
    /// with the button, kind and factor Maeil writes for it. (A step logged in seconds here may
    /// be whole days in the file, where it ran past the day's end: its interval tells nothing.)
    static func isRow(id: Int64, ease: Int, factor: Int, type: Int, of entry: ReviewLogEntry) -> Bool {
        guard let columns = AnkiPackageWriter.revlog(entry) else { return false }
        let time = Int64((entry.time.timeIntervalSince1970 * 1000).rounded(.down))
        return (time...(time + 300_000)).contains(id) && (ease, factor, type) == (columns.ease, columns.factor, columns.type)
    }

    /// Carries another program's scheduling over to the cards of a note already in the
    /// collection: each card's state, suspension and burial, and its review history (as
    /// imported log entries). An Anki card merges as Anki merges: its log rows Maeil does not
    /// have yet are added (never one twice), and its state, suspension and burial replace
    /// Maeil's only when it changed in Anki after it last changed here. Another program's card
    /// (no modification time) schedules only a card Maeil has not reviewed.
    private static func applyScheduling(_ cards: [CardDraft], to note: Note, ankiID: Int64?, cardDecks: [Int64: Int64],
                                        writer: CollectionWriter) throws -> Int {
        let stored = try writer.cards(noteID: note.id)
        var applied = 0
        for imported in cards {
            guard let card = stored.first(where: { $0.template == imported.template && $0.ordinal == imported.ordinal }) else { continue }
            if imported.ankiModified != nil {
                if note.ankiID == nil || card.ankiID == nil {
                    try writer.adoptAnkiIDs(noteID: note.id, ankiID, cardID: card.id, imported.ankiID)
                }
                applied += try mergeAnkiCard(imported, into: card, deckID: imported.ankiDeckID.flatMap { cardDecks[$0] }, writer: writer) ? 1 : 0
                continue
            }
            if card.state == .new, imported.state != .new {
                for entry in imported.history { try writer.appendLog(entry, cardID: card.id, deckID: card.deckID) }
                try writer.setState(cardID: card.id, imported.state, kind: .imported)
                try writer.setAnkiModified(cardID: card.id, imported.ankiModified)
                applied += 1
            }
            if imported.suspended || imported.buriedUntil != nil {
                try writer.setFlags(cardID: card.id, suspended: imported.suspended ? true : nil, buriedUntil: imported.buriedUntil)
            }
        }
        return applied
    }
}

/// What a sync brought back cannot be taken in place: a card whose answers given here cannot
/// each be told in it, or a note that is not here as it is there.
struct SyncTakeProblem: Error {}

/// A note a reader was told is here (`KnownAnkiCards`) and is not. The answer is given inside
/// the import's transaction, so this never happens; were it to, the import writes nothing
/// rather than add the note without its cards' schedules.
struct KnownNoteMissing: Error, CustomStringConvertible {
    let guid: String
    var description: String { "note \(guid) was said to be in the collection and is not: nothing was imported" }
}
