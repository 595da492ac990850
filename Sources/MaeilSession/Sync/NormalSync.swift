import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore
import MaeilSync

/// A normal sync, as Anki's own client makes one: only what changed on each side since the
/// last sync crosses, both sides' answers survive, and where both changed one card or note the
/// newer change wins. This side's changes are found against the base (SyncBase); the server's
/// are merged into this collection's Anki file (SyncMerge), which then replaces the collection
/// the way a full download does, so Maeil reads the result as it reads any Anki collection.
package struct NormalSync {
    package let full: FullSync

    package init(_ full: FullSync) { self.full = full }

    package struct Summary: Codable, Sendable, Equatable {
        /// Rows and deletions sent up.
        package var sentCards = 0, sentNotes = 0, sentReviews = 0, sentDeletions = 0
        /// Rows and deletions taken from the server.
        package var receivedCards = 0, receivedNotes = 0, receivedReviews = 0, receivedDeletions = 0
        package var backup: String?
        /// FSRS cards answered on both sides whose memory now comes from every answer.
        package var recomputedCards = 0
        /// Whether what came down was applied here in place (cards, answers, notes edited, added,
        /// moved or deleted there, cards moved or deleted there alone, answers to cards deleted
        /// there, decks, options and note types made there, note types restyled, deck options
        /// changed, decks renamed, described, given other options or limits or deleted, a day's
        /// counts, the limits' rules, and custom study made, emptied or deleted; no note type
        /// changed in what Maeil makes of it, not the hour a day starts or FSRS), or the
        /// collection took the whole merge.
        package var takenInPlace = false
        /// Whether the collection's settings went up (a limit rule, the day's start or FSRS changed here).
        package var sentSettings = false
        /// Decks that went up for their counts of the day alone (cards studied here count on the phone).
        package var sentDayCounts = 0
    }

    /// Runs the sync against the server whose `meta` was read. `base` is the export the last sync
    /// left (needed when this side changed since).
    package func run(meta: ServerMeta, mark: SyncMark, base: URL?, changedHere: Bool, calendar: Calendar) throws -> Summary {
        let server = full.server
        let work = try FullSync.workFolder()
        var handedOver = false
        defer { if !handedOver { try? FileManager.default.removeItem(at: work) } }
        let merged = work.appendingPathComponent("collection.anki2")
        let (marks, laidOver) = try export(to: merged, base: base, mark: mark, work: work, changedHere: changedHere)
        let merge = try SyncMerge(merged: merged, base: base, changedHere: changedHere, fromBase: laidOver)
        var summary = Summary()
        var cameDown = false
        // Whether anything came at all: where only what Maeil does not hold did, it was taken as it is.
        var anythingCame = false
        // Where only cards, answers and notes came down, the notes they touch: taken in place.
        var inPlace: Set<Int64>?
        // What the server deleted: deleted here too when the rest is taken in place.
        var deletedThere = SyncGraves()
        do {
            let localGraves = try merge.localGraves()
            summary.sentDeletions = localGraves.cards.count + localGraves.notes.count
            // A setting of the collection's changed here: this side is the newer, as Anki's client
            // is after changing its config, and sends it; else the server's comes down.
            let sentConfig = try merge.localConfig()
            summary.sentSettings = sentConfig != nil
            let serverGraves = try server.start(minUsn: mark.usn, localIsNewer: sentConfig != nil)
            summary.receivedDeletions = serverGraves.cards.count + serverGraves.notes.count + serverGraves.decks.count
            deletedThere = serverGraves
            try merge.apply(serverGraves: serverGraves)
            for start in stride(from: 0, to: max(localGraves.cards.count, localGraves.notes.count), by: 250) {
                try server.applyGraves(SyncGraves(cards: Array(localGraves.cards.dropFirst(start).prefix(250)),
                                                  notes: Array(localGraves.notes.dropFirst(start).prefix(250))))
            }
            var objects = try merge.localObjects(usn: meta.usn)
            summary.sentDayCounts = merge.sentDayCounts
            (objects.config, objects.created) = (sentConfig?.config, sentConfig?.created)
            let remote = try server.applyChanges(objects)
            // The server counts due days from its own creation date; without it, nothing can be merged.
            guard let created = remote.created ?? sentConfig?.created else {
                throw SyncError(.server, "the sync server did not send its collection's creation time")
            }
            let settingsChanged = try merge.adopt(created: created, config: remote.config ?? sentConfig?.config)
            anythingCame = !serverGraves.isEmpty || !remote.decks.isEmpty
            // A phone's custom study (a filtered deck made, changed or deleted) is nothing Maeil holds.
            cameDown = settingsChanged || merge.serverChangedLimitRules || !serverGraves.cards.isEmpty || !serverGraves.notes.isEmpty
                || merge.serverDeletedHeldDecks || !remote.models.isEmpty || remote.decks.contains { !SyncMerge.isFiltered($0) } || !remote.deckConfigs.isEmpty
            try merge.markPendingRows(now: full.now)
            try merge.apply(serverObjects: remote)
            while true {
                let chunk = try merge.apply(serverChunk: try server.chunk())
                (summary.receivedCards, summary.receivedNotes, summary.receivedReviews)
                    = (summary.receivedCards + chunk.cards, summary.receivedNotes + chunk.notes, summary.receivedReviews + chunk.revlog)
                cameDown = cameDown || chunk.total > 0
                if chunk.done { break }
            }
            if cameDown, !settingsChanged, !merge.serverChangedObjects,
               !(merge.receivedCards.isEmpty && merge.takenNotes.isEmpty && serverGraves.notes.isEmpty && serverGraves.cards.isEmpty
                 && !merge.serverDeletedHeldDecks
                 && merge.serverChangedOptions.isEmpty && merge.serverChangedDecks.isEmpty && merge.serverNewDecks.isEmpty
                 && merge.serverNewOptions.isEmpty && merge.serverNewNoteTypes.isEmpty && merge.serverRestyledNoteTypes.isEmpty
                 && merge.serverTakenDecks.isEmpty && !merge.serverChangedLimitRules) {
                inPlace = try merge.notes(ofCards: merge.receivedCards).union(merge.takenNotes)
            }
            for chunk in try merge.pendingChunks(usn: meta.usn) {
                (summary.sentCards, summary.sentNotes, summary.sentReviews)
                    = (summary.sentCards + chunk.cards.count, summary.sentNotes + chunk.notes.count, summary.sentReviews + chunk.revlog.count)
                try server.applyChunk(chunk)
            }
            let counts = try merge.counts()
            let check = try server.sanityCheck(cards: counts.cards, notes: counts.notes, revlog: counts.revlog, models: counts.models,
                                               decks: counts.decks, deckConfigs: counts.deckConfigs)
            guard check.ok else {
                throw SyncError(.schema, "after merging, this collection and the server's copy would differ (the server's check: "
                                + "\(check.said.prefix(300))); this collection was not changed")
            }
            let modified = try server.finish()
            try merge.settle(usn: meta.usn, modified: modified, schema: meta.schema)
            try merge.close()
        } catch {
            try? merge.close()
            server.abort()
            throw error
        }
        let contents = try FullSyncFile.contents(of: merged)
        let newMark = SyncMark(endpoint: mark.endpoint, serverModified: contents.modified, schema: meta.schema, usn: meta.usn + 1)
        // Nothing came down that Maeil holds: this collection already is the merge (a filtered deck
        // the server made or deleted is the base's alone); the merge becomes the base.
        if !cameDown {
            // But for what Maeil keeps of Anki's as it came: the server's config and decks.
            _ = try full.collection.writeAsSync(now: full.now) { writer in try Self.takeKept(from: merged, writer: writer) }
            let base = SyncBase(collectionPath: full.collection.path)
            try base.prepare(merged, mark: newMark)
            try full.collection.recordSync(newMark, base: marks?.through, leavesBase: true)
            base.settle()
            // The sync is recorded: an answer left without its id now gets it at the next sync.
            try? full.keepSentAnswerIDs(base: base.file, notes: laidOver ? marks?.notes : nil)
            summary.takenInPlace = anythingCame
            return summary
        }
        var countsToSend = false
        if let notes = inPlace, try takeInPlace(merged: merged, merge: merge, notes: notes, deleted: deletedThere,
                                                mark: newMark, work: work, countsToSend: &countsToSend) {
            summary.takenInPlace = true
            summary.recomputedCards = try recomputeMemory(ankiCardIDs: merge.changedOnBothSides)
            // A deck taken from the server never counted the answers that went up beside it: its
            // counts go up at the next sync.
            if countsToSend { try full.collection.markChangedSinceSync() }
            return summary
        }
        // The server holds the merge now; this side takes it as a full download takes the server's copy.
        handedOver = true
        let result = FullSync.Download(work: work, file: merged, contents: contents)
        let notCounted = try answersNotCounted(inDecks: merge.serverTakenDecks, of: merged)
        summary.backup = try full.replace(with: result, mark: newMark, calendar: calendar, serverObjects: try SyncMerge.storedObjects(in: merged),
                                          answersNotCounted: notCounted)?.path
        summary.recomputedCards = try recomputeMemory(ankiCardIDs: merge.changedOnBothSides)
        // As in place: the decks taken never counted the answers that went up beside them.
        if !notCounted.isEmpty { try full.collection.markChangedSinceSync() }
        return summary
    }

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
    func takeInPlace(merged: URL, merge: SyncMerge, notes: Set<Int64>, deleted: SyncGraves, mark: SyncMark,
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
                guard try writer.deleteAnkiRecords(notes: deleted.notes, cards: deleted.cards) else { throw SyncTakeProblem() }
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

    /// What Anki counted of today's answers in `decks` here and the decks above them (every
    /// deck when nil), beyond what the log counts (`AnkiDayCount.keep`), from the merged file's
    /// decks, by Anki's ids. A deck's own count is its counters less its subdecks': one above a
    /// deck whose counts came changes with them.
    /// For a deck whose row came from the other side (`takenThere`), a count short of the
    /// answers the server held before this sync is kept too (`serverAnsweredSince`: Anki's, and
    /// those sent from here before, whose counts went with them): the counts are the last
    /// device's to answer there, who counted those answers, so fewer is custom study raising
    /// the day's limit there, an answer there in the deck a card has left since, or two devices
    /// answering the deck between syncs (Anki keeps the last one's counts, and so does Maeil).
    /// The answers on their way up now are not among them: the deck taken never counted them.
    /// True where a deck whose row came holds an answer given here that has yet to go up: the
    /// counts taken do not count it, and this side's must go up.
    static func keepDayCounts(of merged: URL, decks: Set<Int64>?, takenThere: Set<Int64>, timeZone: TimeZone, now: Date,
                              writer: CollectionWriter) throws -> Bool {
        guard decks?.isEmpty != true else { return false }
        var behind = false
        let answered = try AnkiPackage.answeredToday(ofCollectionFile: merged, timeZone: timeZone, now: now)
        let here = try writer.decks()
        func ankiID(_ deck: Deck) -> Int64 { deck.ankiID ?? StoreExportSource.proposedID(ofDeck: deck.id) }
        let counted = decks.map { decks in here.filter { decks.contains(ankiID($0)) }.map(\.name) }
        for deck in here {
            let ankiID = ankiID(deck)
            guard counted?.contains(where: { $0 == deck.name || $0.hasPrefix(deck.name + "::") }) != false, var today = answered[ankiID] else { continue }
            if takenThere.contains(ankiID) {
                let dayStart = today.clock.start(ofDay: today.day)
                let logged = try writer.serverAnsweredSince(deck: deck.id, since: dayStart)
                today.logged = AnkiAnsweredToday.Logged(new: logged.new, reviews: logged.reviews)
                let unsent = try writer.unsentAnsweredSince(deck: deck.id, since: dayStart)
                behind = behind || unsent.new + unsent.reviews > 0
            }
            try AnkiDayCount.keep(today, deck: deck.id, writer: writer)
        }
        return behind
    }

    /// Per Anki deck id among `decks` (those whose row the merge took from the server), the
    /// answers given here today that go up in this sync: the merged file's log holds them, and
    /// the deck's counters, the other device's, never counted them. Read before a whole merge
    /// replaces the collection, after which every answer is one the file held.
    func answersNotCounted(inDecks decks: Set<Int64>, of merged: URL) throws -> [Int64: AnkiAnsweredToday.Logged] {
        guard !decks.isEmpty else { return [:] }
        let answered = try AnkiPackage.answeredToday(ofCollectionFile: merged, timeZone: full.timeZone, now: full.now)
        var notCounted: [Int64: AnkiAnsweredToday.Logged] = [:]
        for deck in try full.collection.decks() {
            let ankiID = deck.ankiID ?? StoreExportSource.proposedID(ofDeck: deck.id)
            guard decks.contains(ankiID), let today = answered[ankiID] else { continue }
            let unsent = try full.collection.unsentAnsweredSince(deck: deck.id, since: today.clock.start(ofDay: today.day))
            if unsent.new + unsent.reviews > 0 { notCounted[ankiID] = AnkiAnsweredToday.Logged(new: unsent.new, reviews: unsent.reviews) }
        }
        return notCounted
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

    /// What Maeil keeps of Anki's as it came (the collection's config, the rest of each deck,
    /// each preset's Anki options), as the merge holds it: an import would keep the same, and a
    /// later upload sends it. What Maeil uses of them is taken before (`takeChangedOptions`) or
    /// did not change (else the whole merge is taken), so only what Maeil keeps is written.
    static func takeKept(from merged: URL, writer: CollectionWriter) throws {
        try takeKept(try AnkiPackage.keptObjects(ofCollectionFile: merged), writer: writer)
    }

    static func takeKept(_ kept: AnkiPackage.KeptObjects, writer: CollectionWriter) throws {
        if let config = kept.config { try writer.setAnkiConfig(config) }
        for var deck in try writer.decks() {
            guard let id = deck.ankiID, let json = kept.decks[id], json != deck.ankiJSON else { continue }
            deck.ankiJSON = json
            try writer.update(deck)
        }
        let presets = try writer.presets()
        for preset in presets {
            guard let id = preset.id, let ankiID = ankiOptionsID(of: preset, among: presets), let json = kept.deckOptions[ankiID],
                  json != preset.ankiConfig else { continue }
            try writer.setAnkiConfig(json, ofPreset: id)
        }
    }

    /// The id a preset's options have in Anki: the one they came with, or for options made here
    /// an id of their own (`ownIDBase`), unless a preset from Anki holds that id. Nil for a
    /// preset not saved.
    static func ankiOptionsID(of preset: Preset, among presets: [Preset]) -> Int64? {
        if let id = preset.ankiConfigID { return id }
        guard let id = preset.id else { return nil }
        let own = AnkiPackageWriter.ownIDBase + id
        return presets.contains { $0.ankiConfigID == own } ? nil : own
    }

    /// Options the other side changed in what Maeil uses of them (Anki's deck options screen),
    /// taken into the preset that holds them here, as an import takes options Anki changed:
    /// settings and name as Anki's options give them. What Anki's options do not hold stays the
    /// preset's: its scheduler (FSRS is the collection's switch, and a change of it is taken with
    /// the whole merge), FSRS parameters Anki's SM-2 options leave out, the day's start, gating by
    /// unit, short-term steps and load balancing. Throws `SyncTakeProblem` (the whole merge is
    /// taken) where no preset here holds those options, or their name is another preset's (names
    /// are told apart without case, as the store tells them).
    static func takeChangedOptions(_ ankiIDs: Set<Int64>, kept: AnkiPackage.KeptObjects, writer: CollectionWriter) throws {
        guard !ankiIDs.isEmpty else { return }
        let presets = try writer.presets()
        for ankiID in ankiIDs.sorted() {
            guard let json = kept.deckOptions[ankiID], let stored = presets.first(where: { ankiOptionsID(of: $0, among: presets) == ankiID }),
                  var taken = AnkiPackage.preset(ankiConfig: json, fsrs: stored.scheduler.kind == .fsrs),
                  !presets.contains(where: { $0.id != stored.id && $0.name.lowercased() == taken.name.lowercased() }) else { throw SyncTakeProblem() }
            (taken.id, taken.scheduler.kind) = (stored.id, stored.scheduler.kind)
            if taken.name.isEmpty { taken.name = stored.name }
            (taken.rolloverHour, taken.curriculumGating) = (stored.rolloverHour, stored.curriculumGating)
            (taken.scheduler.shortTermWithSteps, taken.scheduler.loadBalancing) = (stored.scheduler.shortTermWithSteps, stored.scheduler.loadBalancing)
            if stored.scheduler.kind != .fsrs { taken.scheduler.fsrsParameters = stored.scheduler.fsrsParameters }
            _ = try writer.save(taken)
        }
    }

    static let changedMeanwhile = SyncError(.inProgress, "the collection changed while the server's changes were on their way (a review in "
                                            + "another window?); run maeil sync again")

    /// This collection as Anki's file at `merged`. Where every change since the base is marked
    /// (the marks were kept since the sync that left it), only the marked notes are exported and
    /// laid over a copy of the base (SyncDelta); else, or where the part does not fit, the whole
    /// collection is. Answers the marks the export read, and whether it laid a part over the base.
    /// Where nothing changed here since the base, the base is the export as it is.
    func export(to merged: URL, base: URL?, mark: SyncMark, work: URL, changedHere: Bool) throws -> (SyncDirty?, Bool) {
        if let base, try full.collection.syncTracking() == mark {
            try FileManager.default.copyItem(at: base, to: merged)
            if !changedHere { return (try full.collection.readingExport { try $0.syncDirty() }, true) }
            let part = work.appendingPathComponent("marked.anki2")
            defer { try? FileManager.default.removeItem(at: part) }
            if let marks = try full.write(full.collection, to: part, onlyMarked: true),
               try SyncDelta.lay(part, deletedGuids: marks.deletedGuids, over: merged) {
                return (marks, true)
            }
            try FileManager.default.removeItem(at: merged)
        }
        return (try full.write(full.collection, to: merged), false)
    }

    /// One step past Anki: a card changed on both sides keeps the newer side's row (its due
    /// date and interval), but what the merged log says of it comes from every answer in it:
    /// its last review, and an FSRS card's memory. A change here like any other: the next sync
    /// carries it up. Answers how many FSRS cards got their memory so.
    func recomputeMemory(ankiCardIDs: Set<Int64>) throws -> Int {
        guard !ankiCardIDs.isEmpty else { return 0 }
        return try full.collection.batch(now: full.now) { writer in
            var count = 0
            for ankiID in ankiCardIDs.sorted() {
                guard let card = try writer.card(ankiID: ankiID), card.state.phase != .new else { continue }
                let preset = try writer.preset(id: try writer.deck(id: card.deckID).presetID)
                let log = try writer.reviewLog(cardID: card.id).map(\.entry)
                var state = card.state
                // The other side's answer may be the newer even when this row won (a later due date set here).
                // In whole seconds, as Anki keeps it: a fraction later is the same answer's time.
                if let answered = log.last(where: { $0.rating != nil })?.time,
                   answered.timeIntervalSince1970.rounded(.down) > (state.lastReview ?? .distantPast).timeIntervalSince1970.rounded(.down) {
                    state.lastReview = answered
                }
                var remembered = false
                if preset.scheduler.kind == .fsrs {
                    let fsrs = FSRS(parameters: preset.scheduler.fsrsParameters)
                    let clock = preset.dayClock(in: full.timeZone)
                    let nextDay = clock.start(ofDay: clock.dayNumber(of: full.now) + 1)
                    // Only a memory that differs as Anki keeps it: a change past its decimals is none the
                    // other side could see, and the next sync would say it synced nothing.
                    if let memory = FSRSHistory(log: log, nextDayStart: nextDay, fsrs: fsrs).flatMap({ $0.memory(fsrs) }),
                       AnkiPackageWriter.ankiMemory(memory) != card.state.memory.map(AnkiPackageWriter.ankiMemory) {
                        (state.stability, state.difficulty) = (memory.stability, memory.difficulty)
                        remembered = true
                    }
                }
                guard state != card.state else { continue }
                try writer.setState(cardID: card.id, state, kind: .manual)
                count += remembered ? 1 : 0
            }
            return count
        }
    }
}
