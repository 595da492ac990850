import Foundation
import MaeilCore
import MaeilPrograms

/// Decks on their way out of Maeil, in the shape Anki keeps them: note types whole, notes with
/// their values in their type's field order as Anki's HTML, cards with their schedule and
/// history, and the modification times Anki compares to decide what to take.
package struct ExportCollection: Sendable {
    package var noteTypes: [AnkiNoteType]
    package var decks: [ExportDeck]
    /// Pictures and sounds the notes use, by name, where they are.
    package var media: [(name: String, file: URL)]
    /// Anki's ids of the collection's decks that came from Anki, by name: a parent that is not
    /// exported itself goes to Anki under its own id too.
    package var deckAnkiIDs: [String: Int64] = [:]
    package var limitRules: LimitRules?
    package var ankiConfig: String?

    package init(noteTypes: [AnkiNoteType], decks: [ExportDeck], media: [(name: String, file: URL)]) {
        self.noteTypes = noteTypes
        self.decks = decks
        self.media = media
    }
}

/// What a writer of Anki files reads: the decks and what must be known before the first note,
/// then each deck's notes one at a time, then the note types and media those notes use.
/// `ExportCollection` holds them all; Maeil's exporter reads each note from the store when the
/// writer comes to it, so a collection of any size is never held whole.
package protocol ExportSource {
    /// The decks in the order they are written; their notes come from `forEachNote`.
    var decks: [ExportDeck] { get }
    /// Anki's ids of the collection's decks that came from Anki, by name.
    var deckAnkiIDs: [String: Int64] { get }
    /// The Anki ids the notes and cards keep: ids made for the others stay clear of them.
    var keptNoteIDs: Set<Int64> { get }
    var keptCardIDs: Set<Int64> { get }
    /// The earliest due date or last answer of a card that is not new.
    var earliestDate: Date? { get }
    /// Anki's collection-wide rules for daily limits, for a file that holds the collection's settings.
    var limitRules: LimitRules? { get }
    /// Anki's collection config as a whole collection's file brought it (JSON): its keys are
    /// written back, Maeil's own settings over them.
    var ankiConfig: String? { get }
    /// Hands on the notes of `decks[index]`, in order, each with its note type; their cards'
    /// histories only when `history` is set (a text file has no place for them).
    mutating func forEachNote(ofDeck index: Int, history: Bool, _ body: (ExportNote, AnkiNoteType) throws -> Void) throws
    /// The note types of the notes handed on, and the pictures and sounds they use: complete
    /// once every deck's notes were.
    var noteTypes: [AnkiNoteType] { get }
    var media: [(name: String, file: URL)] { get }
    /// The answers of cards that are gone (deleted, their answers kept), for a file that holds
    /// the whole collection: Anki keeps a deleted card's answers in its log under the card's id.
    mutating func forEachGoneCard(_ body: (ExportGoneCard) throws -> Void) throws
}

extension ExportSource {
    package mutating func forEachGoneCard(_ body: (ExportGoneCard) throws -> Void) throws {}
}

/// A card that is gone and its answers, oldest first, under the card's Anki id. Its answers made
/// here are logged with its deck's steps where its deck is known.
package struct ExportGoneCard: Sendable {
    package var ankiID: Int64
    package var preset: Preset?
    package var history: [ReviewLogEntry]

    package init(ankiID: Int64, preset: Preset?, history: [ReviewLogEntry]) {
        (self.ankiID, self.preset, self.history) = (ankiID, preset, history)
    }
}

extension ExportCollection: ExportSource {
    package var keptNoteIDs: Set<Int64> { Set(decks.flatMap(\.notes).compactMap(\.ankiID)) }
    package var keptCardIDs: Set<Int64> { Set(decks.flatMap(\.notes).flatMap(\.cards).compactMap(\.ankiID)) }

    package var earliestDate: Date? {
        decks.flatMap(\.notes).flatMap(\.cards)
            .compactMap { $0.state.phase == .new ? nil : [$0.state.due, $0.state.lastReview].compactMap { $0 }.min() }.min()
    }

    package func forEachNote(ofDeck index: Int, history: Bool, _ body: (ExportNote, AnkiNoteType) throws -> Void) throws {
        let types = Dictionary(noteTypes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for note in decks[index].notes {
            guard let type = types[note.noteTypeID] else { throw MissingNoteType(noteTypeID: note.noteTypeID) }
            try body(note, type)
        }
    }
}

/// A note whose note type is not among the collection's: a fault of whoever made the collection.
package struct MissingNoteType: Error {
    package let noteTypeID: Int64
}

/// What an export wrote, deck by deck.
package struct ExportSummary: Sendable {
    package struct Deck: Sendable {
        package var name: String
        package var scheduler: SchedulerKind
        package var notes = 0
        /// Cards not new among its notes': counted where the package has FSRS and SM-2 decks
        /// (what the summary says of them), else by an export that writes every note.
        package var reviewedCards = 0

        init(_ deck: ExportDeck) { (name, scheduler) = (deck.name, deck.preset.scheduler.kind) }

        /// A deck written before, counted from what the collection holds.
        package init(_ deck: ExportDeck, notes: Int, reviewedCards: Int) {
            self.init(deck)
            (self.notes, self.reviewedCards) = (notes, reviewedCards)
        }

        /// Counts a note written.
        mutating func add(_ note: ExportNote) {
            notes += 1
            reviewedCards += note.cards.filter { $0.state.phase != .new }.count
        }
    }

    package var decks: [Deck] = []
    package var media: Int

    package init(decks: [Deck] = [], media: Int) { (self.decks, self.media) = (decks, media) }
}

package struct ExportDeck: Sendable {
    package var name: String
    /// Its options, written as Anki's deck options.
    package var preset: Preset
    package var notes: [ExportNote]
    /// Anki's id for the deck, when it came from Anki.
    package var ankiID: Int64?
    /// Its description as Anki shows it (HTML).
    package var description: String
    /// The id for a deck that never was in Anki, unless another deck has it: the same in every
    /// export, so a sync finds the deck by it.
    package var proposedID: Int64?
    /// Its own daily limits (Anki's "This deck" and "Today only").
    package var limits = DeckLimits()
    /// The rest of Anki's deck (legacy JSON) as it came from Anki, written back under Maeil's keys.
    package var ankiJSON: String?
    /// Today's answers in it and its subdecks as its limits count them, and their time: Anki
    /// keeps them with the deck and counts them against its limits.
    package var studiedToday = StudiedToday()

    package struct StudiedToday: Sendable, Equatable {
        package var new = 0, reviews = 0, milliseconds = 0
        package init(new: Int = 0, reviews: Int = 0, milliseconds: Int = 0) { (self.new, self.reviews, self.milliseconds) = (new, reviews, milliseconds) }
    }

    package init(name: String, preset: Preset, notes: [ExportNote], ankiID: Int64? = nil, description: String = "") {
        self.name = name
        self.preset = preset
        self.notes = notes
        self.ankiID = ankiID
        self.description = description
    }
}

package struct ExportNote: Sendable {
    package var guid: String
    /// Anki's note type id (one of `ExportCollection.noteTypes`).
    package var noteTypeID: Int64
    /// Values in the note type's field order, as Anki's HTML.
    package var values: [String]
    package var tags: [String]
    /// Seconds since 1970: when the note last changed, in Maeil or in Anki before it came.
    package var modified: Int64
    package var cards: [ExportCard]
    /// Anki's id for the note, when it came from Anki: written back as the same record.
    package var ankiID: Int64?
    /// The id for a note that never was in Anki, unless another record has it: the same in every
    /// export (a sync finds the note by it), and a time, as Anki's ids are (Anki shows it as
    /// the day the note was added).
    package var proposedID: Int64?

    package init(guid: String, noteTypeID: Int64, values: [String], tags: [String], modified: Int64, cards: [ExportCard], ankiID: Int64? = nil) {
        self.ankiID = ankiID
        self.guid = guid
        self.noteTypeID = noteTypeID
        self.values = values
        self.tags = tags
        self.modified = modified
        self.cards = cards
    }
}

package struct ExportCard: Sendable {
    /// Anki's "ord": the template's index, or the cloze deletion's number − 1.
    package var ordinal: Int
    package var state: CardState
    package var suspended: Bool
    package var buried: Bool
    /// Place among new cards.
    package var position: Int
    /// Seconds since 1970: the last change in Maeil, or Anki's own time for a card untouched here.
    package var modified: Int64
    /// The card's answers (and resets), oldest first.
    package var history: [ReviewLogEntry]
    /// The desired retention and decay its FSRS memory was computed for, when it has one.
    package var desiredRetention: Double?
    package var decay: Double?
    /// Anki's id for the card, when it came from Anki, and its flag.
    package var ankiID: Int64?
    package var flags = 0
    /// Buried by the learner (Anki's queue -3) rather than by an answer to a sibling (-2).
    package var buriedByUser = false
    /// Anki's custom data on the card, as it came from Anki.
    package var customData: String? = nil
    /// Anki's record of where the card was in the new queue, as it came from Anki.
    package var originalPosition: Int64? = nil
    /// As ExportNote's.
    package var proposedID: Int64? = nil
    /// The deck the card is in where that is not its note's (Anki's Change Deck, a card type's
    /// deck override), by that deck's `proposedID`: written there where that deck is exported
    /// too, else with its note.
    package var deckProposedID: Int64? = nil

    package init(ordinal: Int, state: CardState, suspended: Bool, buried: Bool = false, position: Int, modified: Int64 = 0,
                history: [ReviewLogEntry] = [], desiredRetention: Double? = nil, decay: Double? = nil, ankiID: Int64? = nil, flags: Int = 0,
                buriedByUser: Bool = false) {
        self.buriedByUser = buriedByUser
        self.ankiID = ankiID
        self.flags = flags
        self.ordinal = ordinal
        self.state = state
        self.suspended = suspended
        self.buried = buried
        self.position = position
        self.modified = modified
        self.history = history
        self.desiredRetention = desiredRetention
        self.decay = decay
    }
}

/// Anki's text export, as Anki reads it back: tab-separated, HTML, guid, note type and deck in
/// columns 1–3, the fields in their note type's order, tags last.
package enum AnkiTextWriter {
    /// Writes the notes to `path` a note at a time: one pass over them for the widest (the
    /// header names the tags' column), a second to write them.
    package static func write(_ source: inout some ExportSource, to path: String) throws -> ExportSummary {
        var width = 0
        for index in source.decks.indices { try source.forEachNote(ofDeck: index, history: false) { note, _ in width = max(width, note.values.count) } }
        var summary = ExportSummary(media: 0)
        try AtomicFile.write(to: path) { append in
            try append(header(width: width).joined(separator: "\n") + "\n")
            for (index, deck) in source.decks.enumerated() {
                var written = ExportSummary.Deck(deck)
                try source.forEachNote(ofDeck: index, history: false) { note, type in
                    written.add(note)
                    try append(row(note, type: type, deck: deck.name, width: width) + "\n")
                }
                summary.decks.append(written)
            }
        }
        summary.media = source.media.count
        return summary
    }

    static func header(width: Int) -> [String] {
        ["#separator:tab", "#html:true", "#guid column:1", "#notetype column:2", "#deck column:3", "#tags column:\(4 + width)"]
    }

    /// A note's line: guid, note type, deck, its values padded to `width`, its tags.
    static func row(_ note: ExportNote, type: AnkiNoteType?, deck: String, width: Int) -> String {
        var cells = [note.guid, noteTypeName(type), deck] + note.values
        cells += Array(repeating: "", count: width - note.values.count)
        cells.append(note.tags.joined(separator: " "))
        return cells.map(quoted).joined(separator: "\t")
    }

    /// The note type a row names. Anki takes a text file's rows only into note types it has:
    /// a note that came from Anki names its own; a Maeil deck's note names Anki's stock Basic
    /// (or Cloze), whose fields take the first columns, in the note's field order.
    static func noteTypeName(_ type: AnkiNoteType?) -> String {
        guard let type else { return "Basic" }
        if type.name.hasPrefix("Maeil: ") { return type.isCloze ? "Cloze" : "Basic" }
        return type.name
    }

    /// Quotes a field when it holds a tab, a newline or a quote; quotes inside are doubled.
    static func quoted(_ value: String) -> String {
        guard value.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\"" || $0 == "\r" }) || value.hasPrefix("#") else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
