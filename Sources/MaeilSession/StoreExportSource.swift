import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore

/// Maeil's own notes of a deck (added here, or from a text file into a deck that came from
/// Anki), as far as the note type they go to Anki under needs them: their fields in the order
/// they first appear, the templates their cards were made from, the latest change.
struct OwnNotes {
    var fields: [String] = []
    var templates = Set<String>()
    var modified: Int64 = 0
    private var seen = Set<String>()

    mutating func add(_ note: Note, cards: [Card]) {
        for field in note.fields where seen.insert(field.name).inserted { fields.append(field.name) }
        templates.formUnion(cards.map(\.template))
        modified = max(modified, note.modified)
    }
}

/// Decks read from the store in the shape Anki keeps them, note by note as a writer asks. A
/// note that came from Anki goes back under its own note type, its HTML as it was; a note of a
/// Maeil deck goes under a note type made from the deck's fields and templates (a real cloze
/// type for cloze decks), its text as HTML.
package struct StoreExportSource: ExportSource {
    let reading: ExportReading
    let stored: [Int64: AnkiNoteType]
    let sources: [(deck: Deck, preset: Preset)]
    /// The preset of each deck written and its FSRS decay, by the deck's number here: a card in
    /// another deck than its note's is scheduled by that deck's (where that deck is not
    /// written, the card goes with its note, and by its note's deck's).
    let presets: [Int64: (preset: Preset, decay: Double)]
    let now: Date
    package let decks: [ExportDeck]
    package let deckAnkiIDs: [String: Int64]
    package let keptNoteIDs: Set<Int64>
    package let keptCardIDs: Set<Int64>
    package let earliestDate: Date?
    package let limitRules: LimitRules?
    package let ankiConfig: String?
    /// What a sync must look at again since its base, read with the rest; and, when given,
    /// the only notes handed on.
    package let dirty: SyncDirty?
    let only: [Int64]?
    private var types: [Int64: AnkiNoteType] = [:]
    private var found: MediaFound
    /// Place among new cards, counted across every deck written.
    private var position = 0

    /// The id an export proposes for a deck (`ExportDeck.proposedID`), from its number here.
    static func proposedID(ofDeck id: Int64) -> Int64 { AnkiPackageWriter.ownIDBase + id }

    init(reading: ExportReading, decks: [(Deck, Preset)], deckAnkiIDs: [String: Int64], mediaFolder: URL, now: Date, timeZone: TimeZone,
         marks: Bool, onlyMarked: Bool) throws {
        self.reading = reading
        dirty = marks || onlyMarked ? try reading.syncDirty() : nil
        only = onlyMarked ? dirty?.notes ?? [] : nil
        stored = try reading.ankiNoteTypes()
        sources = decks.map { (deck: $0.0, preset: $0.1) }
        presets = Dictionary(decks.map { deck, preset in (deck.id, (preset, FSRS(parameters: preset.scheduler.fsrsParameters).decay)) },
                             uniquingKeysWith: { first, _ in first })
        found = MediaFound(folder: mediaFolder)
        self.now = now
        // A description from Anki is its HTML; Maeil's own is plain text.
        let studied = try Self.studiedToday(reading, decks: decks, now: now, timeZone: timeZone)
        self.decks = decks.map { deck, preset in
            var exported = ExportDeck(name: deck.name, preset: preset, notes: [], ankiID: deck.ankiID,
                                      description: deck.ankiID == nil ? FieldText.html(fromPlain: deck.description) : deck.description)
            exported.proposedID = Self.proposedID(ofDeck: deck.id)
            exported.limits = deck.limits
            exported.ankiJSON = deck.ankiJSON
            exported.studiedToday = studied[deck.id] ?? ExportDeck.StudiedToday()
            return exported
        }
        self.deckAnkiIDs = deckAnkiIDs
        // A part (a sync's) whose notes and cards all keep Anki's ids makes none: it need not
        // know which to keep clear. (Where two keep one id, the second's new one may not be the
        // whole export's; the part then does not fit its base, and the whole collection goes.)
        if let only, try !reading.makesAnkiIDs(notes: only) {
            (keptNoteIDs, keptCardIDs) = ([], [])
        } else {
            let (notes, cards) = try reading.ankiIDs(ofDecks: decks.map(\.0.id))
            // The ids of cards that are gone stay clear too: their answers go to Anki under them.
            keptNoteIDs = notes
            keptCardIDs = cards.union(try reading.goneAnkiIDs())
        }
        earliestDate = try reading.earliestDate(ofDecks: decks.map(\.0.id))
        limitRules = try reading.limitRules()
        ankiConfig = try reading.ankiConfig()
    }

    /// Each deck's answers of the day with those of its subdecks among `decks`, as Anki counts
    /// them for a deck and every deck above it; each deck's day by its own options' clock.
    static func studiedToday(_ reading: ExportReading, decks: [(Deck, Preset)], now: Date, timeZone: TimeZone) throws -> [Int64: ExportDeck.StudiedToday] {
        let own = try decks.map { deck, preset in
            let clock = DayClock(timeZone: timeZone, rolloverHour: preset.rolloverHour)
            let answered = try reading.answeredSince(deck: deck.id, since: clock.start(ofDay: clock.dayNumber(of: now)))
            let counted = answered.counted(clock: clock)
            return (name: deck.name, studied: ExportDeck.StudiedToday(new: counted.new, reviews: counted.reviews, milliseconds: answered.milliseconds))
        }
        var result: [Int64: ExportDeck.StudiedToday] = [:]
        for (deck, _) in decks {
            for (name, studied) in own where name == deck.name || name.hasPrefix(deck.name + "::") {
                result[deck.id, default: .init()].new += studied.new
                result[deck.id, default: .init()].reviews += studied.reviews
                result[deck.id, default: .init()].milliseconds += studied.milliseconds
            }
        }
        return result
    }

    package var noteTypes: [AnkiNoteType] { types.values.sorted { $0.id < $1.id } }
    package var media: [(name: String, file: URL)] { found.sorted }

    package mutating func forEachNote(ofDeck index: Int, history: Bool, _ body: (ExportNote, AnkiNoteType) throws -> Void) throws {
        // A pass over the decks starts at the first (a text export makes two): places count from there.
        if index == 0 { position = 0 }
        let (deck, preset) = sources[index]
        // Maeil's own notes: a note type of their fields and templates alone, or they would go
        // to Anki with the Anki notes' fields first and empty. Read once more only where there are
        // some, and among the notes handed on where only some are: the type is written only for them.
        let reading = self.reading
        var own = OwnNotes()
        if try reading.hasNote(deckID: deck.id, outside: stored.keys, among: only) {
            try reading.forEachNote(deckID: deck.id, logs: false) { rows in
                if ankiType(of: rows.note) == nil { own.add(rows.note, cards: rows.cards) }
            }
        }
        let ownType = Exporter.noteType(for: deck, notes: own)
        try reading.forEachNote(deckID: deck.id, logs: history, only: only) { rows in
            let note = rows.note
            let type = ankiType(of: note) ?? ownType
            types[type.id] = type
            try body(exported(rows, type: type, preset: preset), type)
        }
    }

    /// A sync's part (only the marked notes) carries them too: a card answered, then deleted,
    /// since the base has answers the base does not.
    package mutating func forEachGoneCard(_ body: (ExportGoneCard) throws -> Void) throws {
        let presets = Dictionary(sources.map { ($0.deck.id, $0.preset) }, uniquingKeysWith: { first, _ in first })
        try reading.forEachGoneCard { gone in
            guard let ankiID = gone.ankiID else { return }
            try body(ExportGoneCard(ankiID: ankiID, preset: presets[gone.deckID], history: gone.history))
        }
    }

    /// The note type from Anki a note came with, when Maeil keeps it.
    private func ankiType(of note: Note) -> AnkiNoteType? { note.ankiNoteTypeID.flatMap { stored[$0] } }

    private mutating func exported(_ rows: ExportNoteRows, type: AnkiNoteType, preset notePreset: Preset) -> ExportNote {
        let noteDeck = (preset: notePreset, decay: presets[rows.note.deckID]?.decay ?? FSRS(parameters: notePreset.scheduler.fsrsParameters).decay)
        let note = rows.note
        var byName: [String: String] = [:]
        for field in note.fields where byName[field.name] == nil { byName[field.name] = field.value }
        let values = type.fields.map { name in
            let value = byName[name] ?? ""
            return note.html ? value : FieldText.html(fromPlain: value)
        }
        for value in values { found.add(namedIn: value) }
        let cards = rows.cards.map { card -> ExportCard in
            position += 1
            let history = rows.logs[card.id] ?? []
            let kept = rows.ankiData[card.id] ?? AnkiCardData()
            let (preset, decay) = card.deckID == note.deckID ? noteDeck : presets[card.deckID] ?? noteDeck
            // When Maeil last changed the card; Anki's own time for one untouched here.
            let changed = history.last { $0.kind != .imported }.map { Int64($0.time.timeIntervalSince1970) } ?? 0
            let retention = kept.retention(after: history, options: preset.scheduler.desiredRetention)
            // FSRS's decay and retention stay on a card forgotten, as on one with a memory: the
            // retention Forget kept (ManualChange), until Anki works its memory out again and
            // finds none (a move, which clears it).
            let forgotten = card.state.phase == .new && card.state.reps > 0 && preset.scheduler.kind == .fsrs && kept.retention != nil
            let keepsFSRSData = card.state.memory != nil || forgotten
            var exported = ExportCard(
                ordinal: Exporter.ordinal(of: card, in: type), state: card.state, suspended: card.suspended,
                buried: card.buriedUntil.map { $0 > now } ?? false, position: Int(kept.position ?? Int64(position)),
                modified: max(changed, Collection.ankiCardModified(cardAnkiMod: card.ankiModified, cardChanged: rows.modified[card.id],
                                                                     noteAnkiMod: note.ankiModified, noteModified: note.modified)),
                history: history,
                desiredRetention: keepsFSRSData ? retention : nil, decay: keepsFSRSData ? decay : nil, ankiID: card.ankiID, flags: card.flags,
                buriedByUser: card.buriedByUser)
            // The place a card left in the new queue, which Anki records when it leaves it.
            exported.customData = kept.customData
            exported.originalPosition = card.state.phase == .new ? nil : kept.originalPosition ?? kept.position
            exported.proposedID = Collection.proposedAnkiID(created: note.created, id: card.id)
            if card.deckID != note.deckID { exported.deckProposedID = Self.proposedID(ofDeck: card.deckID) }
            return exported
        }
        // A star is Anki's "marked" note: the tag Anki's Browse › Mark sets.
        let starred = rows.cards.contains(where: \.starred)
        let tags = starred && !Tags.isMarked(note.tags) ? note.tags + ["marked"] : note.tags
        var exported = ExportNote(guid: note.guid, noteTypeID: type.id, values: values, tags: tags,
                                  modified: max(note.ankiModified ?? 0, note.modified), cards: cards, ankiID: note.ankiID)
        exported.proposedID = Collection.proposedAnkiID(created: note.created, id: note.id)
        return exported
    }
}
