import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore
import MaeilSync

/// Each kind of record the other side changed (decks, note types, notes, deletions), written
/// here as an import or a command writes it; `SyncTakeProblem` where it does not fit in place.
extension NormalSync {
    /// Decks the other side renamed, described, gave other options or limits of their own, as
    /// the merge holds them: each deck here under the same Anki id takes its name, description,
    /// own limits and the rest of Anki's deck, and joins the preset holding the options it now
    /// has, made as an import makes it (`DeckImport.presetFor`) for options made there. Throws
    /// `SyncTakeProblem` (the whole merge is taken) where no deck here has that id, or the name is
    /// another deck's here (names are told apart without case, as the store tells them; two
    /// decks that swapped names, say).
    static func takeChangedDecks(_ changed: [ImportedDeck], writer: CollectionWriter) throws {
        guard !changed.isEmpty else { return }
        var decks = try writer.decks()
        var presets = try writer.presets()
        for record in changed {
            guard let place = decks.firstIndex(where: { $0.ankiID == record.ankiID }),
                  let optionsID = record.preset?.ankiConfigID,
                  !decks.contains(where: { $0.id != decks[place].id && $0.name.lowercased() == record.name.lowercased() }) else { throw SyncTakeProblem() }
            let preset: Int64
            if let held = presets.first(where: { ankiOptionsID(of: $0, among: presets) == optionsID })?.id {
                preset = held
            } else {
                let (shared, new) = try DeckImport.presetFor(record, writer: writer)
                guard let id = try shared ?? new.map({ try writer.save($0) })?.id else { throw SyncTakeProblem() }
                preset = id
                presets = try writer.presets()
            }
            var deck = decks[place]
            (deck.name, deck.description, deck.limits, deck.presetID) = (record.name, record.description, record.limits, preset)
            deck.ankiJSON = record.ankiJSON ?? deck.ankiJSON
            try writer.update(deck)
            decks[place] = deck
        }
    }

    /// The note types notes use there (`used`) that are not kept here (made there, or first used
    /// by a note that came new), and those the other side restyled (changed only in what Maeil
    /// keeps for Anki: `AnkiNoteType.makesTheSameHere`), kept whole, as the whole merge would keep
    /// them. A restyled one with the same sort field marks none of its notes: they export as
    /// before, and the merge holds them so (one with another sort field marks them all, each
    /// note's sort text changed). A type no note uses stays the base's alone, as after a whole
    /// merge. Throws `SyncTakeProblem` (the whole merge is taken) for a restyled type not kept
    /// here as Anki's (one Maeil makes for its own decks) or not alike here.
    static func takeNoteTypes(_ used: [AnkiNoteType], restyled: Set<Int64>, writer: CollectionWriter) throws {
        var taken: [AnkiNoteType] = [], alike: [AnkiNoteType] = []
        for type in used {
            if restyled.contains(type.id) {
                guard let kept = try writer.ankiNoteType(id: type.id), kept.makesTheSameHere(as: type) else { throw SyncTakeProblem() }
                if kept.sortField == type.sortField { alike.append(type) } else { taken.append(type) }
            } else if try !writer.hasNoteType(ankiID: type.id) {
                taken.append(type)
            }
        }
        try writer.save(taken)
        try writer.saveRestyled(alike)
    }

    /// Decks made on the other side (not filtered: a phone's custom study is nothing Maeil holds),
    /// made here as an import makes them (`DeckImport.create`): under Anki's id, joining the preset
    /// holding their options, or one made for options made there too. Throws `SyncTakeProblem`
    /// (the whole merge is taken) where a deck here has the name (made here since the last sync).
    static func takeNewDecks(_ made: [ImportedDeck], writer: CollectionWriter) throws {
        for record in made {
            guard try writer.deck(named: record.name) == nil else { throw SyncTakeProblem() }
            _ = try DeckImport.create(record, writer: writer)
        }
    }

    /// Notes that came down new (no note here has their guid), written into their decks as an
    /// import writes them: with their cards, schedules and logs, under Anki's ids. Answers their
    /// guids. Throws `SyncTakeProblem` for a note of a type not kept here (`takeNoteTypes` keeps
    /// each a note there uses first; the whole merge is taken).
    /// A new note comes as a row the merge took (`takenNotes`): only those are looked up, not the
    /// notes of every card that came.
    static func addNewNotes(_ events: [ImportEvent], takenNotes: Set<Int64>, writer: CollectionWriter) throws -> Set<String> {
        var new = Set<String>()
        for case .notes(_, let notes) in events {
            for note in notes where note.ankiID.map(takenNotes.contains) == true {
                guard try writer.note(guid: note.guid) == nil else { continue }
                guard let type = note.ankiNoteTypeID, try writer.hasNoteType(ankiID: type) else { throw SyncTakeProblem() }
                new.insert(note.guid)
            }
        }
        guard !new.isEmpty else { return [] }
        // In the reader's order: a deck's templates come before the notes that need them.
        var application = ImportApplication()
        for event in events {
            guard case .notes(let deck, let notes) = event else {
                _ = try application.apply(event, writer: writer) {}
                continue
            }
            let adding = notes.filter { new.contains($0.guid) }
            if !adding.isEmpty { _ = try application.apply(.notes(deck: deck, adding), writer: writer) {} }
        }
        _ = try application.finish(writer: writer, listingGone: false)
        return new
    }

    /// A note edited on the other side, as the merge took it: its fields and tags (and the star
    /// its `marked` tag gives), where it is here under the ids Anki knows it and its cards by
    /// (Anki's own, or for a note made here the ones exports proposed, which it then takes as
    /// Anki's), of the same note type, with the same cards, and keeps them. Throws
    /// `SyncTakeProblem` where not: the transaction rolls back and the whole merge is taken instead.
    static func takeEditedNote(_ draft: NoteDraft, writer: CollectionWriter) throws {
        guard var note = try writer.note(guid: draft.guid), note.ankiNoteTypeID == draft.ankiNoteTypeID,
              note.ankiID ?? Collection.proposedAnkiID(created: note.created, id: note.id) == draft.ankiID,
              note.kind == draft.kind, note.fields.map(\.name) == draft.fields.map(\.name) else { throw SyncTakeProblem() }
        let stored = try writer.cards(noteID: note.id).map { card in
            (card: card, ankiID: card.ankiID ?? Collection.proposedAnkiID(created: note.created, id: card.id))
        }
        let cards = Set(stored.compactMap(\.ankiID))
        guard cards == Set(draft.cards.compactMap(\.ankiID)) else { throw SyncTakeProblem() }
        (note.fields, note.tags, note.html, note.ankiModified) = (draft.fields, draft.tags, draft.html, draft.ankiModified)
        try writer.updateNote(note)
        // Maeil's templates would make another card of the new fields than Anki did: not a note it can take alone.
        guard try writer.cards(noteID: note.id).count == cards.count else { throw SyncTakeProblem() }
        try writer.setStarred(noteID: note.id, Tags.isMarked(draft.tags))
        for (card, ankiID) in stored where card.ankiID == nil || note.ankiID == nil {
            try writer.adoptAnkiIDs(noteID: note.id, draft.ankiID, cardID: card.id, ankiID)
        }
    }

    /// A note whose cards the other side moved to another deck (Anki's Change Deck sends card
    /// rows, not the note's): moved here too, as an import moves it, its cards under the names
    /// its note type's templates have in that deck (added to the deck where it has none, as for
    /// a note added there), each card the other side keeps in a deck of its own left there.
    /// Nothing where it is in that deck already. Throws `SyncTakeProblem` (the whole merge is
    /// taken) where a deck is not here under Anki's id. `decks`: the collection's, read once for
    /// every note, kept as this writes them.
    static func takeMovedNote(_ draft: NoteDraft, toDeck ankiDeckID: Int64?, decks: inout [Deck], writer: CollectionWriter) throws {
        guard let note = try writer.note(guid: draft.guid) else { throw SyncTakeProblem() }
        guard decks.first(where: { $0.id == note.deckID })?.ankiID != ankiDeckID else { return }
        guard let ankiDeckID, let place = decks.firstIndex(where: { $0.ankiID == ankiDeckID }),
              let typeID = note.ankiNoteTypeID, let type = try writer.ankiNoteType(id: typeID) else { throw SyncTakeProblem() }
        var target = decks[place]
        let stored = try writer.cards(noteID: note.id)
        guard let named = NoteMove.names(of: stored, type: type, in: target) else { throw SyncTakeProblem() }
        if named.deck != target.templates {
            target.templates = named.deck
            try writer.update(target)
            decks[place] = target
        }
        var apart: [Int64: Int64] = [:]
        let cards = try stored.map { card in
            let ankiID = card.ankiID ?? Collection.proposedAnkiID(created: note.created, id: card.id)
            if let kept = draft.cards.first(where: { $0.ankiID != nil && $0.ankiID == ankiID }) { apart[card.id] = try deckHere(of: kept, among: decks) }
            return (cardID: card.id, template: named.cards[card.id] ?? card.template)
        }
        try writer.move(noteID: note.id, toDeck: target.id, position: try writer.nextNotePosition(deckID: target.id), cards: cards, apart: apart)
    }

    /// The decks the other side deleted (Anki deletes a deck's cards with it, and a note whose
    /// last card it was, which came as their own deletions and are gone here already), known
    /// by Anki's id or the one exports propose for a deck made here: deleted here too, their
    /// answers left in the log. One Maeil holds no deck for (a phone's custom study) is none.
    /// Throws `SyncTakeProblem` (the whole merge is taken) where a note or card is still in one.
    static func deleteDecks(_ deleted: [Int64], writer: CollectionWriter) throws {
        guard !deleted.isEmpty else { return }
        let ids = Set(deleted)
        for deck in try writer.decks() where ids.contains(deck.ankiID ?? StoreExportSource.proposedID(ofDeck: deck.id)) {
            guard try writer.deleteEmptyDeck(id: deck.id) else { throw SyncTakeProblem() }
        }
    }

    /// The deck here a card is in there where that is not its note's (`CardDraft.ankiDeckID`),
    /// by Anki's id; nil where it is with its note. Throws `SyncTakeProblem` (the whole merge is
    /// taken) where that deck is not here under Anki's id.
    static func deckHere(of card: CardDraft, among decks: [Deck]) throws -> Int64? {
        guard let ankiID = card.ankiDeckID else { return nil }
        guard let deck = decks.first(where: { $0.ankiID == ankiID }) else { throw SyncTakeProblem() }
        return deck.id
    }
}
