import GRDB
import GRDBSQLite
import MaeilCore
import MaeilSQLite

/// Which of a package's notes the collection importing it holds as the package has them
/// (`KnownAnkiCards`), found before the notes are read in turn: one pass over the package's
/// cards and one over its notes, where reading them note by note with the rest was most of
/// importing a package again.
struct PackageNotesHere {
    /// Notes whose cards are all here as the package has them, by the package's id: their
    /// cards are not read, nor their logs. Each with its home deck (`NoteBatch.homeDecks`).
    private(set) var cardsKnown: [Int64: Int64] = [:]
    /// Of those, the notes whose fields, tags and note type are here as well: read no further.
    private(set) var asStored: [Int64: (guid: String, noteType: Int64)] = [:]
    /// How many of the package's notes have a note here with their guid: merged, not added.
    private(set) var notesHere = 0

    init() {}

    /// `languages`: a note type's spoken language by field, as the import gives its notes.
    /// Finds nothing where the package's values are not of the types Anki writes: those
    /// notes are read, and refused, as any others.
    init(_ db: Database, known: StoredAnkiRecords, noteTypes: [Int64: AnkiNoteType], renamesMedia: Bool,
         languages: (AnkiNoteType) -> [String: String]) throws {
        guard !known.cards.isEmpty else { return }
        struct Candidate {
            /// The collection's id for its note with this guid.
            var stored: Int64
            var guid: String
            var noteType: Int64
            /// Its fields, tags and note type are here as the package has them.
            var sameNote: Bool
            /// Its first card (in template order) so far, and whether each card so far is here unchanged.
            var first: (ordinal: Int64, homeDeck: Int64)?
            var cardsKnown = true
            /// A deck one of its cards is in, and whether another card is in another: such a
            /// note is read whole, its cards announcing their decks as a first import's do.
            var someDeck: Int64?
            var severalDecks = false
        }
        // The package's notes that have a note here with their guid, and where each is among them
        // (changed in place card by card: a copy of each would cost more than the rest).
        var candidates: [Candidate] = []
        var candidateAt: [Int64: Int] = [:]
        candidateAt.reserveCapacity(known.notes.count)
        candidates.reserveCapacity(known.notes.count)
        var spoken: [Int64: [String?]] = [:]
        let notesRead = try StraightRows.read(db, sql: "SELECT id, mid, tags, flds, guid FROM notes",
                                              types: [SQLITE_INTEGER, SQLITE_INTEGER, SQLITE_TEXT, SQLITE_TEXT, SQLITE_TEXT]) { row in
            let guid = row.text(4)
            guard let stored = known.notes[guid] else { return }
            var same = false
            if !renamesMedia, let type = noteTypes[row.int64(1)] {
                let fieldLanguages = spoken[type.id] ?? {
                    let byField = languages(type)
                    let fieldLanguages = type.fields.map { byField[$0] }
                    spoken[type.id] = fieldLanguages
                    return fieldLanguages
                }()
                // The same bytes are the same text: NFC text and media names are written as they come.
                same = row.bytes(3).elementsEqual(stored.values.utf8) && row.bytes(2).trimmed(0x20).elementsEqual(stored.tags.utf8.trimmed(0x20))
                    && stored.kind == (type.isCloze ? .cloze : .basic) && stored.noteType == type.name && stored.ankiNoteType == type.id
                    && stored.html && !stored.inUnit && stored.fieldNames == type.fields && stored.languages == fieldLanguages
            }
            candidateAt[row.int64(0)] = candidates.count
            candidates.append(Candidate(stored: stored.id, guid: guid, noteType: row.int64(1), sameNote: same))
        }
        guard notesRead, !candidates.isEmpty else { return }
        notesHere = candidates.count
        // A card is here unchanged when the collection has it, with Anki's time, on the note with its note's guid.
        let cardsRead = try StraightRows.read(db, sql: "SELECT id, nid, did, odid, mod, ord FROM cards",
                                              types: Array(repeating: SQLITE_INTEGER, count: 6)) { row in
            guard let at = candidateAt[row.int64(1)] else { return }
            let ordinal = row.int64(5)
            let deck = row.int64(3) != 0 ? row.int64(3) : row.int64(2)
            if candidates[at].first.map({ ordinal < $0.ordinal }) ?? true { candidates[at].first = (ordinal, deck) }
            if candidates[at].someDeck.map({ $0 != deck }) ?? false { candidates[at].severalDecks = true }
            candidates[at].someDeck = deck
            if candidates[at].cardsKnown, known.cards[row.int64(0)] != StoredAnkiRecords.Card(note: candidates[at].stored, modified: row.int64(4)) {
                candidates[at].cardsKnown = false
            }
        }
        guard cardsRead else { return }
        cardsKnown.reserveCapacity(candidates.count)
        asStored.reserveCapacity(candidates.count)
        for (id, at) in candidateAt where candidates[at].cardsKnown && !candidates[at].severalDecks {
            let candidate = candidates[at]
            guard let first = candidate.first else { continue }
            cardsKnown[id] = first.homeDeck
            if candidate.sameNote { asStored[id] = (candidate.guid, candidate.noteType) }
        }
    }
}

extension BidirectionalCollection where Element == UInt8 {
    /// The bytes without `byte` at either end (Anki's tags column has a space at each).
    func trimmed(_ byte: UInt8) -> SubSequence {
        var (start, end) = (startIndex, endIndex)
        while start < end, self[start] == byte { formIndex(after: &start) }
        while start < end, self[index(before: end)] == byte { formIndex(before: &end) }
        return self[start..<end]
    }
}
