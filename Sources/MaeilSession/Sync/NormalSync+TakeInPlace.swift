import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore
import MaeilSync

/// What came down, taken into this collection in place of a whole merge, in one transaction.
extension NormalSync {
    /// The server's cards, answers, edited notes, deleted notes and changed deck options, applied
    /// here in place where nothing else came down: each card merged as an import merges it
    /// (`DeckImport.mergeAnkiCard`), each note the merge took given its fields and tags, as the
    /// merge decided, each note whose cards went to another deck moved there and each card
    /// moved alone put in its deck, each note and each card alone the server deleted deleted
    /// here (`CollectionWriter.deleteAnkiRecords`; their answers stay in the log, as Anki keeps
    /// them, and the answers to cards deleted there since join their logs), each deck deleted
    /// there and left empty deleted (`deleteDecks`), each deck changed or made there taken
    /// (`takeChangedDecks`, `takeNewDecks`, with a preset for options made there), each note type
    /// made or restyled there kept (`takeNoteTypes`), each preset
    /// whose options changed there given them (`takeChangedOptions`), the limits' rules the
    /// collection's settings there hold (`SyncMerge.serverChangedLimitRules`), the day's counts
    /// of each deck whose row came kept (`keepDayCounts`), in one transaction, as the sync's own
    /// writes. The next base is the merge with the notes changed here laid over it, as this
    /// collection now exports them.
    /// False, with nothing changed, where a card or note that came down is not found here as it
    /// is there (with other cards, its cards in a deck not here, of a note type restyled there
    /// that Maeil made for its own deck), a card deleted there was a note's last here, a deck
    /// deleted there still holds a note here, a deck made there has the name of one made here,
    /// or a card's answers given here cannot be told in its log (the collection then takes the
    /// whole merge); an error where another writer changed the collection meanwhile (the next
    /// sync carries that change, and takes this one's again).
    /// `countsToSend`: set where a deck taken from the server counts fewer answers than this
    /// side, which went up in this sync (`keepDayCounts`).
    func takeInPlace(merged: URL, merge: SyncMerge, sent: [Int64]?, notes: Set<Int64>, deleted: SyncGraves, mark: SyncMark,
                     work: URL, countsToSend: inout Bool) throws -> Bool {
        let (cards, taken, takenNotes) = (merge.receivedCards, merge.takenCards, merge.takenNotes)
        let (changedOptions, changedDecks, newDecks) = (merge.serverChangedOptions, merge.serverChangedDecks, merge.serverNewDecks)
        var options = ImportOptions()
        (options.timeZone, options.now, options.onlyNotes, options.ownWorkingCopy) = (full.timeZone, full.now, notes, true)
        // Cards answered, then deleted, there: their answers come as gone cards' (Anki keeps them).
        options.goneCards = cards
        var gone: [GoneCardDraft] = []
        var drafts: [(note: NoteDraft, card: CardDraft)] = []
        var noteDrafts: [NoteDraft] = []
        // Decks, templates and notes as an import takes them, for notes that came down new.
        var events: [ImportEvent] = []
        // Each note whose cards came, with the Anki id of the deck its cards are in there.
        var homes: [(note: NoteDraft, deck: Int64?)] = []
        var deckIDs: [Int64?] = []
        var renamedOrSet: [ImportedDeck] = [], made: [ImportedDeck] = []
        // Every note type a note there uses.
        var types: [AnkiNoteType] = []
        try DeckReader.stream([merged.path], options: options) { event in
            switch event {
            case .notes(let deck, let notes):
                for note in notes {
                    let received = note.cards.filter { $0.ankiID.map(cards.contains) == true }
                    for card in received { drafts.append((note, card)) }
                    if !received.isEmpty { homes.append((note, deckIDs[deck])) }
                    if note.ankiID.map(takenNotes.contains) == true { noteDrafts.append(note) }
                }
                events.append(event)
            case .deck(var deck):
                deckIDs.append(deck.ankiID)
                if deck.ankiID.map(changedDecks.contains) == true { renamedOrSet.append(deck) }
                if deck.ankiID.map(newDecks.contains) == true { made.append(deck) }
                // A deck speaks as its first note's type: here, the first of a few notes, so it keeps its own.
                deck.speak = nil
                events.append(.deck(deck))
            case .templates:
                events.append(event)
            case .goneCards(let cards):
                gone += cards
            case .noteTypes(let used):
                types += used
            default:
                break
            }
        }
        guard drafts.count + gone.count == cards.count, noteDrafts.count == takenNotes.count, renamedOrSet.count == changedDecks.count,
              made.count == newDecks.count else { return false }
        let written: Void?
        do {
            written = try full.collection.writeAsSync(now: full.now) { writer in
                // First, the notes and cards sent (`sent`, nil: all) keep the ids they went up under:
                // a record that came down may hold the one such a note had proposed.
                try FullSync.keepSentRecordIDs(base: merged, notes: sent, writer: writer)
                guard try writer.deleteAnkiRecords(notes: deleted.notes, cards: deleted.cards) else { throw SyncTakeProblem() }
                // Rows given here to a card deleted there went up in this sync and come back in its
                // log with the answers there: they take their ids first, so none is kept twice.
                if !gone.isEmpty { try FullSync.keepSentAnswerIDs(base: merged, notes: [], writer: writer) }
                try writer.keepGoneCards(gone)
                try Self.deleteDecks(deleted.decks, writer: writer)
                // Before the notes: a note new in a note type made there finds it kept.
                try Self.takeNoteTypes(types, restyled: merge.serverRestyledNoteTypes, writer: writer)
                // Then the decks, before the notes too: a note that came new into a renamed or new
                // deck finds it by its name; a deck made there takes a name a renamed one left.
                try Self.takeChangedDecks(renamedOrSet, writer: writer)
                try Self.takeNewDecks(made, writer: writer)
                let added = try Self.addNewNotes(events, takenNotes: takenNotes, writer: writer)
                var found: [(CardDraft, Card)] = []
                let byAnkiID = try writer.cards(ankiIDs: drafts.compactMap(\.card.ankiID))
                for (note, draft) in drafts {
                    if let id = draft.ankiID, let card = byAnkiID[id] {
                        found.append((draft, card))
                        continue
                    }
                    // A card made here, known to Anki by the id an export proposed for it (its note's
                    // guid, and the id the exporter proposes): given Anki's ids from now on.
                    guard let stored = try writer.note(guid: note.guid),
                          let card = try writer.cards(noteID: stored.id).first(where: {
                              $0.ankiID == nil && Collection.proposedAnkiID(created: stored.created, id: $0.id) == draft.ankiID
                          })
                    else { throw SyncTakeProblem() }  // rolls back what was written before it
                    try writer.adoptAnkiIDs(noteID: stored.id, note.ankiID, cardID: card.id, draft.ankiID)
                    found.append((draft, card))
                }
                for draft in noteDrafts where !added.contains(draft.guid) { try Self.takeEditedNote(draft, writer: writer) }
                var decks = try writer.decks()
                for (note, deck) in homes where !added.contains(note.guid) {
                    try Self.takeMovedNote(note, toDeck: deck, decks: &decks, writer: writer)
                }
                // The merge decided which row of a card is the newer: a row it took replaces this one;
                // where this side's won, or only answers came, they join its log.
                for (draft, card) in found {
                    _ = try DeckImport.mergeAnkiCard(draft, into: card, deckID: try Self.deckHere(of: draft, among: decks), writer: writer,
                                                     taking: draft.ankiID.map(taken.contains) == true)
                }
                let kept = try AnkiPackage.keptObjects(ofCollectionFile: merged)
                if merge.serverChangedLimitRules, let rules = kept.limitRules { try writer.setLimitRules(rules) }
                try Self.takeChangedOptions(changedOptions, kept: kept, writer: writer)
                try Self.takeKept(kept, writer: writer)
                // An answer to a card gone has no deck in the log: the day's counts of Anki's decks
                // hold it, as a whole merge keeps them (`AnkiDayCount`); so are the counts of the
                // decks whose rows came, custom study's raised limits among them.
                countsToSend = try Self.keepDayCounts(of: merged, decks: gone.isEmpty ? merge.serverTakenDecks : nil,
                                                      takenThere: merge.serverTakenDecks, timeZone: full.timeZone, now: full.now, writer: writer)
                // The answers that went up keep the ids the server has them under, before the next base is exported.
                try FullSync.keepSentAnswerIDs(base: merged, notes: nil, writer: writer)
            }
        } catch is SyncTakeProblem {
            // Nothing was written (the transaction rolled back): the whole merge is taken instead.
            return false
        }
        guard written != nil else { throw Self.changedMeanwhile }
        // The next base: the merge, with what this collection now exports for the notes changed
        // here laid over it; where that cannot be laid (the merge is then as it was), the whole
        // collection's export.
        let part = work.appendingPathComponent("taken.anki2")
        var marks = try full.write(full.collection, to: part, onlyMarked: true)
        var (nextBase, answersOf): (URL, URL?) = (merged, nil)
        if try !(marks.map { try SyncDelta.lay(part, deletedGuids: $0.deletedGuids, over: merged, keepingDayCounts: true) } ?? false) {
            nextBase = work.appendingPathComponent("next-base.anki2")
            try full.keepSentRecordIDs(base: merged)
            marks = try full.write(full.collection, to: nextBase)
            try SyncMerge.addMissing(try SyncMerge.storedObjects(in: merged), to: nextBase)
            try SyncMerge.moveToCalendar(of: merged, in: nextBase)
            answersOf = merged
        }
        if try full.collection.changedDuringSync() { throw Self.changedMeanwhile }
        let base = SyncBase(collectionPath: full.collection.path)
        try base.prepare(nextBase, mark: mark, answersOf: answersOf)
        try full.collection.recordSync(mark, base: marks?.through, leavesBase: true)
        base.settle()
        return true
    }
}
