import Foundation
import GRDB
import MaeilCore
import MaeilTestSupport
import Testing
@testable import MaeilStore

/// Issue 24: after a sync, every kind of write to what a sync carries marks the collection
/// changed since, whichever path makes it; what Anki has no place for does not.
@Suite("Changes since the last sync")
struct SyncMarkTests {
    static let mark = SyncMark(endpoint: "http://127.0.0.1:1/", serverModified: 1_000, schema: 2_000, usn: 3)

    /// The notes a sync would look at again (`Collection.syncDirty`).
    static func marked(_ collection: Collection) throws -> Set<Int64> {
        Set(try collection.read { db in try Collection.syncDirty(db)?.notes ?? [] })
    }

    /// A sync's end: the marks it read cleared with the base it leaves, none left.
    static func clearMarks(_ collection: Collection) throws {
        let through = try #require(try collection.read { db in try Collection.syncDirty(db)?.through })
        try collection.recordSync(Self.mark, base: through, leavesBase: true)
        #expect(try marked(collection).isEmpty)
    }

    @Test func neverSyncedCountsAsChanged() throws {
        let collection = try Fixture.collection()
        #expect(try collection.syncMark() == nil)
        #expect(try collection.changedSinceSync())
    }

    /// An upsert (a note type imported again) under the sync's triggers: the trigger must not
    /// take on the upsert's conflict clause (an INSERT OR REPLACE in it made every later import
    /// of an Anki package fail with "UNIQUE constraint failed: meta.key").
    @Test func anUpsertAfterASyncIsAChange() throws {
        let collection = try Fixture.collection()
        var type = AnkiNoteType(id: 77, name: "Basic", isCloze: false, fields: ["Front", "Back"],
                                templates: [.init(name: "Card 1", question: "{{Front}}", answer: "{{Back}}")], modified: 1, legacyJSON: "{}")
        try collection.batch(now: Date()) { writer in try writer.save([type]) }
        _ = try collection.takeChangeFlag()
        try collection.recordSync(Self.mark)
        try collection.settleChangeFlag()
        #expect(try !collection.changedSinceSync())
        type.modified = 2
        try collection.batch(now: Date()) { writer in try writer.save([type]) }
        #expect(try collection.changedSinceSync())
    }

    @Test(arguments: ["answer", "star", "tag", "delete", "preset", "undo"])
    func everyWriteIsAChange(_ kind: String) throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 3)
        let clock = TestClock(Fixture.noon)
        let note = try collection.notes(deckID: deck.id)[0]
        let cards = try collection.cards(noteID: note.id).map(\.id)
        let others = try collection.cards(noteID: collection.notes(deckID: deck.id)[1].id).map(\.id)
        if kind == "undo" { try collection.apply(.cards(cards, .star(true), label: "star")) }
        #expect(try collection.takeChangeFlag(), "never synced")
        try collection.recordSync(Self.mark)
        try collection.settleChangeFlag()
        #expect(try collection.syncMark() == Self.mark)
        #expect(try !collection.changedSinceSync())
        switch kind {
        case "answer": try Fixture.session(collection, clock: clock, deckIDs: [deck.id]).send(.answer(.good))
        case "star": try collection.apply(.cards(cards, .star(true), label: kind))
        case "tag": try collection.apply(.note(note.id, .tags(add: ["x"], remove: []), label: kind))
        case "delete": try collection.apply(.note(note.id, .delete, label: kind))
        case "preset":
            var preset = try collection.preset(id: deck.presetID)
            preset.newPerDay += 1
            _ = try collection.save(preset)
        default: _ = try collection.undoLast()
        }
        #expect(try collection.changedSinceSync(), "\(kind) is a change the server has not seen")
        #expect(try collection.changedDuringSync())
        // A sync takes the change; one killed half-way leaves it a change for the next.
        #expect(try collection.takeChangeFlag())
        #expect(try collection.changedSinceSync() && !collection.changedDuringSync())
        #expect(try collection.takeChangeFlag(), "a sync that never finished carried nothing")
        try collection.restoreChangeFlag()
        #expect(try collection.changedSinceSync(), "a sync that did not carry the changes puts the flag back")
        #expect(try collection.takeChangeFlag())
        try collection.settleChangeFlag()
        #expect(try !collection.changedSinceSync() && !collection.takeChangeFlag(), "carried: nothing new since")
        // A write while a sync runs is a change after it.
        #expect(try !collection.takeChangeFlag())
        try collection.apply(.cards(others, .flag(2), label: "flag"))
        #expect(try collection.changedDuringSync())
        try collection.settleChangeFlag()
        #expect(try collection.changedSinceSync())
    }

    /// A preset's scheduler gives the rows its notes export their steps and retention, its day's
    /// start their dates: a change marks the notes whose rows it changes for the next sync's
    /// export. Its Anki options (limits, burying) and the Anki options it only keeps (refreshed
    /// by a sync) mark none, so a sync that takes them does not export every note again.
    @Test func onlyWhatAPresetGivesItsCardsMarksTheirNotes() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 3)
        _ = try collection.takeChangeFlag()
        #expect(try Self.marked(collection).isEmpty)
        try collection.batch(now: Fixture.noon) { writer in try writer.setAnkiConfig(#"{"autoplay":false,"id":5}"#, ofPreset: deck.presetID) }
        #expect(try collection.preset(id: deck.presetID).ankiConfigID == 5)
        #expect(try Self.marked(collection).isEmpty, "Anki's options kept as they came mark no note")
        var preset = try collection.preset(id: deck.presetID)
        (preset.newPerDay, preset.buryNew) = (7, true)
        preset = try collection.save(preset)
        #expect(try Self.marked(collection).isEmpty, "limits and burying are Anki's options, which a sync sends whole")
        preset.scheduler.desiredRetention = 0.85
        preset = try collection.save(preset)
        #expect(try Self.marked(collection).isEmpty, "cards never studied export no retention or steps")
        // One card in its learning steps: a change of steps marks its note alone.
        let notes = try collection.notes(deckID: deck.id).map(\.id)
        let card = try #require(try collection.cards(noteID: notes[0]).first)
        var state = card.state
        (state.phase, state.step, state.due) = (.learning, 0, Fixture.noon.addingTimeInterval(60))
        try collection.batch(now: Fixture.noon) { writer in try writer.setState(cardID: card.id, state, kind: .manual) }
        try Self.clearMarks(collection)
        preset.scheduler.learningSteps = [120, 1200]
        preset = try collection.save(preset)
        #expect(try Self.marked(collection) == [notes[0]])
        try Self.clearMarks(collection)
        preset.rolloverHour = (preset.rolloverHour + 1) % 24
        _ = try collection.save(preset)
        #expect(try Self.marked(collection) == Set(notes), "the day's start dates every card")
    }

    /// A card in another deck than its note's (Anki's Change Deck) exports by its own deck: that
    /// deck's options (its steps, retention, day's start) and its id in Anki mark its note, which
    /// its note's deck holds no card of theirs for.
    @Test func aCardInAnotherDeckIsMarkedByThatDecksChanges() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 2)
        var other = try Fixture.wordDeck(collection, name: "Words::Reverse", count: 0)
        let notes = try collection.notes(deckID: deck.id).map(\.id)
        let card = try #require(try collection.cards(noteID: notes[0]).last)
        var state = card.state
        (state.phase, state.step, state.due) = (.learning, 0, Fixture.noon.addingTimeInterval(60))
        try collection.batch(now: Fixture.noon) { writer in
            try writer.db.execute(sql: "UPDATE card SET deck_id = ? WHERE id = ?", arguments: [other.id, card.id])
            try writer.setState(cardID: card.id, state, kind: .manual)
        }
        _ = try collection.takeChangeFlag()
        try Self.clearMarks(collection)
        var preset = try collection.preset(id: other.presetID)
        preset.scheduler.learningSteps = [120, 1200]
        preset = try collection.save(preset)
        #expect(try Self.marked(collection) == [notes[0]], "the steps of the card's deck")
        try Self.clearMarks(collection)
        preset.rolloverHour = (preset.rolloverHour + 1) % 24
        _ = try collection.save(preset)
        #expect(try Self.marked(collection) == [notes[0]], "the day's start of the card's deck")
        try Self.clearMarks(collection)
        other.ankiID = 1_700_000_000_000
        try collection.batch(now: Fixture.noon) { writer in try writer.update(other) }
        #expect(try Self.marked(collection) == [notes[0]], "the card's deck in Anki")
    }

    /// A deck's name gives the notes of Maeil's own note types theirs, and a deck Anki does not
    /// know yet its id; a note of an Anki note type in a deck Anki knows exports the same under
    /// any name (a phone's rename marked every note of the deck, and the sync that took it
    /// exported them all). A description is Anki's deck, which a part writes whole.
    @Test func aRenameMarksOnlyTheNotesTheNameChanges() throws {
        let collection = try Fixture.collection()
        var deck = try Fixture.wordDeck(collection, count: 3)
        let notes = try collection.notes(deckID: deck.id).map(\.id)
        _ = try collection.takeChangeFlag()
        deck.name = "Renamed once"
        try collection.update(deck)
        #expect(try Self.marked(collection) == Set(notes), "a deck Anki does not know by an id of its own")
        try Self.clearMarks(collection)
        deck.ankiID = 1_700_000_000_000
        try collection.update(deck)
        #expect(try Self.marked(collection) == Set(notes), "its cards' deck in Anki")
        try collection.batch(now: Fixture.noon) { writer in
            try writer.db.execute(sql: "UPDATE note SET anki_note_type = 77 WHERE id IN (?, ?)", arguments: [notes[0], notes[1]])
        }
        try Self.clearMarks(collection)
        deck.name = "Renamed twice"
        try collection.update(deck)
        #expect(try Self.marked(collection) == [notes[2]], "the note of Maeil's own note type alone")
        try Self.clearMarks(collection)
        deck.description = "said on the phone"
        try collection.update(deck)
        #expect(try Self.marked(collection).isEmpty)
    }

    /// A note type kept whole again: a new definition marks every note of the type (its notes
    /// export by its fields, cards and sort field), but one the caller found restyled only
    /// (`saveRestyled`) marks none; a note marked before stays marked, and a type saved again
    /// while a note of it is marked is saved.
    @Test func aRestyledNoteTypeMarksNoNote() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 3)
        let notes = try collection.notes(deckID: deck.id).map(\.id)
        func type(css: String, modified: Int64) -> AnkiNoteType {
            AnkiNoteType(id: 77, name: "Basic", isCloze: false, fields: ["Front", "Back"],
                         templates: [.init(name: "Card 1", question: "{{Front}}", answer: "{{Back}}")], modified: modified,
                         legacyJSON: #"{"id":77,"name":"Basic","css":"\#(css)","sortf":0}"#)
        }
        try collection.batch(now: Fixture.noon) { writer in
            try writer.save([type(css: ".card {}", modified: 1)])
            try writer.db.execute(sql: "UPDATE note SET anki_note_type = 77")
        }
        _ = try collection.takeChangeFlag()
        try Self.clearMarks(collection)
        try collection.batch(now: Fixture.noon) { writer in try writer.save([type(css: ".card { color: red; }", modified: 2)]) }
        #expect(try Self.marked(collection) == Set(notes), "saved as a new definition")
        try Self.clearMarks(collection)
        try collection.batch(now: Fixture.noon) { writer in
            try writer.db.execute(sql: "UPDATE note SET tags = ' edited ' WHERE id = ?", arguments: [notes[0]])
            try writer.saveRestyled([type(css: ".card { color: navy; }", modified: 3)])
        }
        #expect(try Self.marked(collection) == [notes[0]], "restyled: only the note edited before")
        #expect(try collection.read { db in try Collection.ankiNoteType(db, id: 77) }?.legacyJSON.contains("navy") == true)
        // Saved again while a note of it is marked (an import after an edit): the upsert's own
        // conflict clause overrode the marking trigger's, and the save failed on that note's mark.
        try collection.batch(now: Fixture.noon) { writer in try writer.save([type(css: ".card { color: green; }", modified: 4)]) }
        #expect(try Self.marked(collection) == Set(notes))
    }

    /// v35 gives each deck template of an Anki note type its answer's tags, which no export
    /// reads: in a collection that syncs it marks no note, and a deck's change marks its notes after.
    @Test func givingTemplatesTheirAnswersTagsMarksNoNote() throws {
        let path = Fixture.temporaryPath()
        let collection = try Collection(path: path)
        let type = AnkiNoteType(id: 77, name: "Basic", isCloze: false, fields: ["word", "meaning"],
                                templates: [.init(name: "Card 1", question: "{{word}}", answer: "{{FrontSide}}<hr id=answer>{{meaning}}")],
                                modified: 1, legacyJSON: "{}")
        let deck = try Fixture.wordDeck(collection, count: 3, templates: type.maeilTemplates)
        let notes = try collection.notes(deckID: deck.id).map(\.id)
        try collection.batch(now: Fixture.noon) { writer in
            try writer.save([type])
            try writer.db.execute(sql: "UPDATE note SET anki_note_type = 77, note_type = 'Basic'")
        }
        _ = try collection.takeChangeFlag()
        try Self.clearMarks(collection)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            var templates = try DecodeCache.templates(try #require(try String.fetchOne(db, sql: "SELECT templates FROM deck WHERE id = ?", arguments: [deck.id])))
            for index in templates.indices { templates[index].ankiAnswerTags = nil }
            try db.execute(sql: "UPDATE deck SET templates = ? WHERE id = ?", arguments: [try DeckTable.templatesColumn(templates), deck.id])
            try db.execute(sql: "DELETE FROM sync_dirty_note; DELETE FROM grdb_migrations WHERE identifier = 'v35'")
        }
        try queue.close()
        let reopened = try Collection(path: path)
        #expect(try reopened.deck(named: deck.name)?.templates.map(\.ankiAnswerTags) == ["{{FrontSide}}{{meaning}}"])
        #expect(try Self.marked(reopened).isEmpty, "the migration marks nothing")
        try reopened.batch(now: Fixture.noon) { writer in
            try writer.db.execute(sql: "UPDATE deck SET templates = ? WHERE id = ?", arguments: [try DeckTable.templatesColumn([]), deck.id])
        }
        #expect(try Self.marked(reopened) == Set(notes), "a deck's change marks its notes")
    }

    /// A collection that synced with the triggers that marked with a conflict clause gets them
    /// made again when opened (v30): a note type saved again while a note of it is marked is
    /// saved, and nothing is marked by the migration.
    @Test func anOlderCollectionGetsTheTriggersMadeAgain() throws {
        let path = Fixture.temporaryPath()
        let collection = try Collection(path: path)
        let deck = try Fixture.wordDeck(collection, count: 2)
        let notes = try collection.notes(deckID: deck.id).map(\.id)
        let type = AnkiNoteType(id: 77, name: "Basic", isCloze: false, fields: ["Front", "Back"],
                                templates: [.init(name: "Card 1", question: "{{Front}}", answer: "{{Back}}")], modified: 1, legacyJSON: "{}")
        try collection.batch(now: Fixture.noon) { writer in
            try writer.save([type])
            try writer.db.execute(sql: "UPDATE note SET anki_note_type = 77")
        }
        _ = try collection.takeChangeFlag()
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                DROP TRIGGER sync_mark_note_type_update;
                CREATE TRIGGER sync_mark_note_type_update AFTER UPDATE ON note_type BEGIN
                  INSERT OR REPLACE INTO sync_dirty_note (note_id) SELECT id FROM note WHERE anki_note_type IN (OLD.anki_id, NEW.anki_id); END;
                DELETE FROM sync_dirty_note;
                INSERT INTO sync_dirty_note (note_id) VALUES (\(notes[0]));
                DELETE FROM grdb_migrations WHERE identifier = 'v30';
                """)
        }
        try queue.close()
        let reopened = try Collection(path: path)
        #expect(try reopened.read { try Int64.fetchAll($0, sql: "SELECT note_id FROM sync_dirty_note") } == [notes[0]], "the migration marks nothing")
        try reopened.batch(now: Fixture.noon) { writer in try writer.save([type]) }
        #expect(Set(try reopened.read { try Int64.fetchAll($0, sql: "SELECT note_id FROM sync_dirty_note") }) == Set(notes))
    }

    /// An answer's row written again marks its card's note, and a row moved to another card
    /// both notes.
    @Test func aLogRowWrittenAgainMarksItsNotes() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 3)
        let notes = try collection.notes(deckID: deck.id).map(\.id)
        try Fixture.session(collection, clock: TestClock(Fixture.noon), deckIDs: [deck.id]).send(.answer(.good))
        let (row, answered) = try #require(try collection.read { db in
            try Row.fetchOne(db, sql: "SELECT review_log.id, card.note_id FROM review_log JOIN card ON card.id = review_log.card_id LIMIT 1")
                .map { ($0[0] as Int64, $0[1] as Int64) }
        })
        let other = try #require(notes.first { $0 != answered })
        let second = try collection.cards(noteID: other)[0]
        _ = try collection.takeChangeFlag()
        // The marks alone: a card the answer buried is looked at again anyway (`syncDirty`).
        func marked() throws -> Set<Int64> { Set(try collection.read { try Int64.fetchAll($0, sql: "SELECT note_id FROM sync_dirty_note") }) }
        let through = try #require(try collection.read { db in try Collection.syncDirty(db)?.through })
        try collection.recordSync(Self.mark, base: through, leavesBase: true)
        #expect(try marked().isEmpty)
        try collection.transaction { try $0.execute(sql: "UPDATE review_log SET anki_id = 5 WHERE id = ?", arguments: [row]) }
        #expect(try marked() == [answered])
        try collection.transaction { try $0.execute(sql: "UPDATE review_log SET card_id = ? WHERE id = ?", arguments: [second.id, row]) }
        #expect(try marked() == [answered, other])
    }

    /// A write after which notes export as the base holds them (an answer given the id the base
    /// has it under, once a sync is recorded) takes back the marks it set; a note marked before
    /// keeps its mark, a change the next sync must carry.
    @Test func aWriteTheBaseHoldsTakesBackOnlyItsOwnMarks() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 3)
        let notes = try collection.notes(deckID: deck.id).map(\.id)
        _ = try collection.takeChangeFlag()
        func marked() throws -> Set<Int64> { Set(try collection.read { try Int64.fetchAll($0, sql: "SELECT note_id FROM sync_dirty_note") }) }
        let through = try #require(try collection.read { db in try Collection.syncDirty(db)?.through })
        try collection.recordSync(Self.mark, base: through, leavesBase: true)
        #expect(try marked().isEmpty)
        try collection.apply(.note(notes[0], .tags(add: ["x"], remove: []), label: "tag"))
        #expect(try marked() == [notes[0]])
        try collection.batch(now: Fixture.noon) { writer in
            try writer.unmarkingForSync {
                try writer.setStarred(noteID: notes[0], true)
                try writer.setStarred(noteID: notes[1], true)
            }
            try writer.setStarred(noteID: notes[2], true)
        }
        #expect(try marked() == [notes[0], notes[2]])
    }
}
