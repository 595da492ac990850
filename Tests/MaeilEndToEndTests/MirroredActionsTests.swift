import Foundation
import GRDB
import MaeilCore
import MaeilStore
import Testing
import MaeilTestSupport

/// Issue 23: what a person does in Maeil to a collection from Anki is what Anki would hold had
/// the same been done in Anki. Each seeded collection is imported; Maeil edits a note, tags one,
/// stars one, flags a card, suspends a note, forgets a card, sets one due, unsuspends and unburies
/// a note, moves one with an FSRS memory to a deck of other options, deletes a note, adds one, changes
/// Korean's options and answers what it shows; Anki does the same to a copy of the collection, each
/// at the second Maeil did it (seeded.py mirror). Anki's reading of Maeil's .colpkg and .apkg is
/// then held against its reading of its own copy, card by card, deck by deck.
/// A suite of its own, beside the seeded suite rather than in its line: the two are the longest
/// in the run (these actions 9 minutes, the seeded suite's other tests 15, one after the other),
/// and on two cores the second core idled for the last ten minutes while they ran in turn.
@Suite("What Maeil does is what Anki would hold, over seeded collections")
struct MirroredActionsTests {
    /// The seeded suite's collections and helpers, in a folder of this test's own.
    let seeded = OneCollectionTests()

    /// A case for each zone the collections are studied in: 201 seeds one after another were
    /// the last test of the run by minutes, one core idle beside it.
    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(40)),
          arguments: OneCollectionTests.zones)
    func whatMaeilDoesIsWhatAnkiWouldHold(studiedIn zone: String) throws {
        try seeded.whatMaeilDoesIsWhatAnkiWouldHold(studiedIn: zone)
    }
}

extension OneCollectionTests {
    func whatMaeilDoesIsWhatAnkiWouldHold(studiedIn zone: String) throws {
        let made = try makeCollections(firstSeed: 500, only: ProcessInfo.processInfo.environment["MAEIL_MIRROR_SEEDS"], studiedIn: zone)
        // MAEIL_MIRROR_SEEDS may name seeds of other zones alone.
        guard !made.isEmpty else { return }
        var answered = 0, compared = 0, textNotes = 0
        var jobs: [[String: Any]] = [], exported: [String] = []
        for entry in made {
            let seedFolder = folder.appendingPathComponent(entry.seed)
            let collection = seedFolder.appendingPathComponent("maeil-acted.sqlite").path
            _ = try maeil(["import", seedFolder.appendingPathComponent("anki.colpkg").path, "--create"], collection: collection, zone: zone)
            // A .colpkg keeps the file it was made of: the one after the actions lays the notes they
            // changed over this one's (ExportBase), and that is the one Anki reads. The seeded suite's
            // .colpkg (OneCollectionTests) is a first, written whole. That first export is the acting
            // session's first command, and the three exports after are one session at the prompt: a
            // process for each took a fifth of this test's time.
            let first = "export --out \"\(seedFolder.appendingPathComponent("imported.colpkg").path)\""
            let actions = try act(on: collection, seed: entry.seed, zone: zone, first: first)
            answered += actions.filter { $0["do"] as? String == "answer" }.count
            let outs = ["colpkg", "apkg", "txt"].map { seedFolder.appendingPathComponent("acted.\($0)").path }
            let exports = try maeil([], collection: collection, zone: zone, input: outs.map { "export --out \"\($0)\"\n" }.joined())
            #expect(exports.stderr.isEmpty && outs.allSatisfy(FileManager.default.fileExists(atPath:)), "seed \(entry.seed): \(exports.stderr)")
            exported += outs.prefix(2)
            let text = outs[2]
            jobs.append(["path": seedFolder.appendingPathComponent("collection.anki2").path,
                         "out": seedFolder.appendingPathComponent("mirror.anki2").path, "actions": actions, "text": text])
        }
        let jobsFile = folder.appendingPathComponent("mirror-\(zone.replacingOccurrences(of: "/", with: "-")).json")
        try JSONSerialization.data(withJSONObject: jobs).write(to: jobsFile)
        let mirrored = try seeded(["mirror", jobsFile.path], zone: zone) as? [String: [String: Any]] ?? [:]
        let ankisOwn = jobs.map { URL(fileURLWithPath: $0["out"] as! String).deletingLastPathComponent().appendingPathComponent("mirror.apkg").path }
        let read = try ankiRead(exported + ankisOwn, zone: zone)
        for job in jobs {
            let out = job["out"] as! String
            let seed = URL(fileURLWithPath: out).deletingLastPathComponent().lastPathComponent
            let anki = try #require(mirrored[out], "seed \(seed): Anki's copy")
            #expect(anki["check_database"] as? String == "Database rebuilt and optimized.", "seed \(seed): Anki's own copy: \(anki["check_database"] ?? "")")
            let folder = URL(fileURLWithPath: out).deletingLastPathComponent()
            // A .colpkg is the collection: held against Anki's copy itself. An .apkg goes into a new
            // collection, which moves dates as Anki's importer moves them: held against Anki's own .apkg.
            // Anki's importer takes a learning card out of a filtered deck with its day unshifted (it
            // shifts only a review card's): Anki's own .apkg moves such a card's date, Maeil's keeps it.
            let filteredLearning = Set((anki["cards"] as? [String: [String: Any]] ?? [:]).filter {
                $0.value["filtered"] as? Bool == true && [1, 3].contains($0.value["type"] as? Int ?? 0)
            }.keys)
            for (format, counterpart) in [("colpkg", anki), ("apkg", try #require(read[folder.appendingPathComponent("mirror.apkg").path]))] {
                let maeil = try #require(read[folder.appendingPathComponent("acted.\(format)").path], "seed \(seed): Maeil's .\(format)")
                compared += Self.compareActed(maeil, counterpart, seed: "seed \(seed), .\(format)", wholeCollection: format == "colpkg",
                                              datesMovedByAnki: format == "apkg" ? filteredLearning : [])
            }
            textNotes += Self.compareText(anki, seed: "seed \(seed)")
        }
        #expect(answered >= made.count * 5, "answers given in Maeil and in Anki: \(answered)")
        #expect(compared >= made.count * 20, "cards compared: \(compared)")
        #expect(textNotes >= made.count * 10, "notes compared through the text export: \(textNotes)")
    }

    /// Maeil's text export, imported by Anki into the collection it came from (seeded.py's
    /// `text_into_copy`): every note Anki's copy still holds has the fields and tags it has there.
    /// Answers how many notes it held.
    static func compareText(_ anki: [String: Any], seed: String) -> Int {
        let text = anki["text"] as? [String: Any] ?? [:]
        #expect(text["conflicting"] as? Int == 0 && text["missing_notetype"] as? Int == 0 && (text["updated"] as? Int ?? 0) > 0,
                "\(seed): Anki's import of Maeil's text: \(text.filter { $0.key != "notes" })")
        let imported = text["notes"] as? [String: [String: Any]] ?? [:]
        var expected: [String: [String: Any]] = [:]
        // The note added on each side has a guid of its own there.
        for (key, card) in anki["cards"] as? [String: [String: Any]] ?? [:] where (card["fields"] as? [String])?.first?.hasPrefix("{{c1::added}}") != true {
            expected[String(key[..<key.lastIndex(of: "/")!])] = card
        }
        for (guid, card) in expected {
            let note = imported[guid]
            #expect(normalized(note?["fields"]) == normalized(card["fields"]) && normalized(note?["tags"]) == normalized(card["tags"]),
                    "\(seed): note \(guid) through Maeil's text: \(note ?? [:]) vs Anki's \(card["fields"] ?? "") \(card["tags"] ?? "")")
        }
        return expected.count
    }

    /// Maeil does each thing to the collection at `path` through its command line; answers
    /// what it did, as seeded.py's mirror actions, each at the second it was done.
    /// `first`: a command the acting session runs before any action.
    func act(on path: String, seed: String, zone: String, first: String) throws -> [[String: Any]] {
        var random = SeededGenerator(seed: UInt64(seed)! &* 7919)
        let store = try Collection(path: path, readOnly: true)
        let notes = try store.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, anki_id, length(field_names) - length(replace(field_names, char(31), '')) + 1 FROM note
                WHERE anki_id IS NOT NULL AND coalesce(note_type, '') NOT LIKE '%Occlusion%' ORDER BY id
                """).map { (id: $0[0] as Int64, anki: $0[1] as Int64, fields: $0[2] as Int) }.shuffled(using: &random)
        }
        let cards = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT id, anki_id, phase, suspended FROM card WHERE anki_id IS NOT NULL ORDER BY id")
                .map { (id: $0[0] as Int64, anki: $0[1] as Int64, phase: $0[2] as String, suspended: $0[3] as Bool) }.shuffled(using: &random)
        }
        let (edited, tagged, starred, suspended, deleted) = (notes[0], notes[1], notes[2], notes[3], notes[4])
        var actions: [[String: Any]] = []
        func now() -> Int { Int(Date().timeIntervalSince1970) }
        actions.append(["do": "open", "at": now()])
        // One session at Maeil's prompt, fed from a pipe (a process for each took most of the test's time).
        var commands = [first, "edit \(edited.id)", "edited \(seed)"] + Array(repeating: "", count: edited.fields - 1)
        var done: [[String: Any]] = [["do": "edit", "note": edited.anki, "field": 0, "value": "edited \(seed)"]]
        commands += ["tag \(tagged.id) +mirrored", "star \(starred.id)", "flag 3 card:\(cards[0].id)", "suspend \(suspended.id)"]
        done += [["do": "tag", "note": tagged.anki, "tag": "mirrored"], ["do": "star", "note": starred.anki],
                 ["do": "flag", "card": cards[0].anki, "flag": 3], ["do": "suspend", "note": suspended.anki]]
        let reviews = cards.filter { $0.phase == "review" && !$0.suspended }
        if let forgotten = reviews.first {
            commands.append("forget \(forgotten.id)")
            done.append(["do": "forget", "card": forgotten.anki])
        }
        // Anki logs these though the card does not change: a new card forgotten, and a due date set
        // twice to the same day (before, Maeil's export left out the second and the reset).
        if let forgotten = cards.first(where: { $0.phase == "new" && !$0.suspended && $0.id != cards[0].id }) {
            commands.append("forget \(forgotten.id)")
            done.append(["do": "forget", "card": forgotten.anki])
        }
        if let moved = reviews.dropFirst().first(where: { $0.id != cards[0].id }) {
            for _ in 0..<2 {
                commands.append("set-due 5 card:\(moved.id)")
                done.append(["do": "set-due", "card": moved.anki, "days": "5"])
            }
        }
        // A suspended note unsuspended and a buried one unburied, where the seed has them. (Not
        // a new card set due: Anki leaves it without a last review time, which its own Check
        // Database then adds.)
        let used = Set([edited, tagged, starred, suspended, deleted].map(\.id))
        let others = try store.read { db in
            try Row.fetchAll(db, sql: """
                SELECT note.id, note.anki_id, max(card.suspended), max(card.buried_until IS NOT NULL) FROM note
                JOIN card ON card.note_id = note.id
                WHERE note.anki_id IS NOT NULL AND coalesce(note.note_type, '') NOT LIKE '%Occlusion%' GROUP BY note.id ORDER BY note.id
                """).map { (id: $0[0] as Int64, anki: $0[1] as Int64, suspended: $0[2] as Bool, buried: $0[3] as Bool) }
                .filter { !used.contains($0.id) }
        }
        if let unsuspended = others.first(where: \.suspended) {
            commands.append("unsuspend \(unsuspended.id)")
            done.append(["do": "unsuspend", "note": unsuspended.anki])
        }
        if let unburied = others.first(where: \.buried) {
            commands.append("unbury \(unburied.id)")
            done.append(["do": "unbury", "note": unburied.anki])
        }
        // A note with a card FSRS remembers moved to a deck of other options (Browse › Change Deck):
        // Anki works each card's memory out again from its log by that deck's options.
        let moving = try store.read { db in
            try Row.fetchAll(db, sql: """
                SELECT note.id, note.anki_id, target.name FROM note JOIN card ON card.note_id = note.id
                JOIN deck home ON home.id = note.deck_id
                JOIN deck target ON target.preset_id != home.preset_id AND target.kind IS NOT 'filtered'
                WHERE note.anki_id IS NOT NULL AND card.stability IS NOT NULL AND coalesce(note.note_type, '') NOT LIKE '%Occlusion%'
                GROUP BY note.id ORDER BY note.id, target.id
                """).map { (id: $0[0] as Int64, anki: $0[1] as Int64, deck: $0[2] as String) }
                .filter { !used.contains($0.id) }
        }
        if let moved = moving.first {
            commands.append("move \"\(moved.deck)\" \(moved.id)")
            done.append(["do": "move", "note": moved.anki, "deck": moved.deck])
        }
        commands.append("delete \(deleted.id) --yes")
        done.append(["do": "delete", "note": deleted.anki])
        let at = now()
        let session = try maeil([], collection: path, zone: zone, input: commands.joined(separator: "\n") + "\n")
        #expect(session.stderr.isEmpty, "seed \(seed): \(session.stderr)")
        actions += done.map { $0.merging(["at": at]) { $1 } }
        // A note added to Korean, of the note type Maeil picks for it (a line a type has no field for
        // is left over, so in a process of its own); Anki adds the same.
        let typed = ["{{c1::added}} \(seed)", "back \(seed)", "y"], addedAt = now()
        let added = try maeil(["add", "Korean"], collection: path, zone: zone, input: typed.joined(separator: "\n") + "\n")
        let noteType: Int64? = try store.read { db in try Int64.fetchOne(db, sql: "SELECT anki_note_type FROM note WHERE guid LIKE 'maeil-%'") }
        let addedType = try #require(noteType, "seed \(seed): the added note's note type: \(added.stdout) \(added.stderr)")
        actions.append(["do": "add", "deck": "Korean", "fields": typed, "notetype": addedType, "at": addedAt])
        // Korean's options changed, then answers to what Maeil shows, each at the second its log says,
        // with the rating it logged (a typed answer is judged); at the prompt, as one session.
        actions.append(["do": "options", "deck": "Korean", "new_per_day": 7, "at": now()])
        let since = Int64(now()) * 1000
        let keys = (0..<12).map { _ in ["1", "3", "3", "4", "2", "3"].randomElement(using: &random)! }
        let review = try maeil([], collection: path, zone: zone, input: (["deck Korean set new_per_day 7", "review"] + keys).joined(separator: "\n") + "\n")
        #expect(review.stderr.isEmpty, "seed \(seed): \(review.stderr)")
        let answers = try store.read { db in
            try Row.fetchAll(db, sql: """
                SELECT card.anki_id, review_log.rating, review_log.time, card.ordinal, card.template FROM review_log JOIN card ON card.id = review_log.card_id
                WHERE review_log.kind = 0 AND review_log.time >= ? ORDER BY review_log.time, review_log.id
                """, arguments: [since])
        }
        func addedOrd(template: String, ordinal: Int) throws -> Int {
            let definition = try store.read { db in try String.fetchOne(db, sql: "SELECT definition FROM note_type WHERE anki_id = ?", arguments: [addedType]) }
            let type = try #require(definition.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
            if type["isCloze"] as? Bool == true { return ordinal - 1 }
            let names = (type["templates"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            // A deck holding several note types names each template after its type too: "Card 1 (Basic…)".
            let index = names.firstIndex(of: template) ?? names.firstIndex { template == "\($0) (\(type["name"] as? String ?? ""))" }
            return try #require(index, "seed \(seed): template \(template) among \(names)")
        }
        for row in answers {
            var answer: [String: Any] = ["do": "answer", "rating": row[1] as Int, "at": Int((row[2] as Int64) / 1000)]
            // A card of the note added here has no Anki id yet: Anki's copy answers the card of its own
            // added note with the same template (Anki's ord: the template's place, or the cloze number less one).
            if let id = row[0] as Int64? { answer["card"] = id } else { answer["added_ordinal"] = try addedOrd(template: row[4], ordinal: row[3]) }
            actions.append(answer)
        }
        return actions
    }

    /// Anki's reading of Maeil's file against its reading of its own copy: every card (but for
    /// when it was saved, and the seconds an answer took), each note's fields and tags, the
    /// review log row by row, the decks and their options, and for a .colpkg the collection's
    /// config. The note added on each side is matched by its text. Answers how many cards it held.
    static func compareActed(_ maeil: [String: Any], _ anki: [String: Any], seed: String, wholeCollection: Bool,
                             datesMovedByAnki: Set<String> = []) -> Int {
        #expect(maeil["check_database"] as? String == "Database rebuilt and optimized.", "\(seed): \(maeil["check_database"] ?? "") \(maeil["check_changed"] ?? "")")
        func added(_ cards: [String: [String: Any]]) -> [String: [String: Any]] {
            cards.filter { ($0.value["fields"] as? [String])?.first?.hasPrefix("{{c1::added}}") == true }
        }
        var maeilCards = maeil["cards"] as? [String: [String: Any]] ?? [:], ankiCards = anki["cards"] as? [String: [String: Any]] ?? [:]
        let maeilAdded = added(maeilCards), ankiAdded = added(ankiCards)
        for key in maeilAdded.keys { maeilCards[key] = nil }
        for key in ankiAdded.keys { ankiCards[key] = nil }
        func byOrdinal(_ cards: [String: [String: Any]]) -> [String: [String: Any]] {
            Dictionary(uniqueKeysWithValues: cards.map { (String($0.key.split(separator: "/").last!), $0.value) })
        }
        let maeilNew = byOrdinal(maeilAdded), ankiNew = byOrdinal(ankiAdded)
        #expect(!ankiNew.isEmpty && Set(maeilNew.keys) == Set(ankiNew.keys), "\(seed): the added note's cards \(maeilNew.keys.sorted()) vs \(ankiNew.keys.sorted())")
        for (ordinal, card) in ankiNew {
            for column in ["type", "queue", "deck", "fields", "tags", "flags", "reps"] {
                #expect(normalized(maeilNew[ordinal]?[column]) == normalized(card[column]), "\(seed): the added note's card \(ordinal)'s \(column): \(maeilNew[ordinal]?[column] ?? "none") vs \(card[column] ?? "none")")
            }
        }
        #expect(Set(maeilCards.keys) == Set(ankiCards.keys),
                "\(seed): cards only in Maeil's \(Set(maeilCards.keys).subtracting(ankiCards.keys).sorted()), only in Anki's \(Set(ankiCards.keys).subtracting(maeilCards.keys).sorted())")
        for (key, card) in ankiCards {
            guard let mine = maeilCards[key] else { continue }
            // Maeil has no filtered decks: a card Anki's copy holds in one is in its home deck here.
            for (column, value) in card where !["mod", "note_mod", "revlog", "due_at", "filtered", "data"].contains(column) {
                if column == "due_date", datesMovedByAnki.contains(key) { continue }
                #expect(normalized(mine[column]) == normalized(value), "\(seed): \(key)'s \(column): Maeil \(mine[column] ?? "none"), Anki \(value)")
            }
            // The card's data whole, but for its last review's time: stamped at the second each
            // side did the same thing, which may differ by one (as learning due times below).
            var data = (mine["data"] as? [String: Any] ?? [:], card["data"] as? [String: Any] ?? [:])
            let lastReview = (data.0.removeValue(forKey: "lrt") as? Int64, data.1.removeValue(forKey: "lrt") as? Int64)
            #expect(normalized(data.0) == normalized(data.1) && (lastReview.0 == nil) == (lastReview.1 == nil)
                    && abs((lastReview.0 ?? 0) - (lastReview.1 ?? 0)) <= 2,
                    "\(seed): \(key)'s data: Maeil \(mine["data"] ?? "none"), Anki \(card["data"] ?? "none")")
            // Learning due times: the second an answer was given on each side may differ by one.
            let due = (mine["due_at"] as? Int64, card["due_at"] as? Int64)
            #expect(due.0 == due.1 || (due.0 != nil && due.1 != nil && abs(due.0! - due.1!) <= 2), "\(seed): \(key)'s due_at \(due)")
            let rows = (mine["revlog"] as? [[Int64]] ?? [], card["revlog"] as? [[Int64]] ?? [])
            let sameLog = rows.0.count == rows.1.count && zip(rows.0, rows.1).allSatisfy { a, b in
                abs(a[0] / 1000 - b[0] / 1000) <= 2 && a[1...4] == b[1...4] && a[6] == b[6]
            }
            #expect(sameLog, "\(seed): \(key)'s review log (id, ease, ivl, lastIvl, factor, time, type): Maeil \(rows.0), Anki \(rows.1)")
        }
        if wholeCollection {
            // The answers of cards deleted (the note Anki deleted before, the one deleted on each
            // side): kept, under their cards' ids, as Anki keeps them.
            let gone = (maeil["gone_revlog"] as? [String: [[Int64]]] ?? [:], anki["gone_revlog"] as? [String: [[Int64]]] ?? [:])
            let sameGone = Set(gone.0.keys) == Set(gone.1.keys) && gone.1.allSatisfy { card, rows in
                let mine = gone.0[card] ?? []
                return mine.count == rows.count && zip(mine, rows).allSatisfy { a, b in abs(a[0] / 1000 - b[0] / 1000) <= 2 && a[1...4] == b[1...4] && a[6] == b[6] }
            }
            #expect(sameGone && !gone.1.isEmpty, "\(seed): answers of deleted cards: Maeil \(gone.0), Anki \(gone.1)")
            // An .apkg goes into a new collection, whose own Default deck and options it meets.
            let decks = (maeil["decks"] as? [String: Any] ?? [:], anki["decks"] as? [String: Any] ?? [:])
            #expect(NSDictionary(dictionary: decks.0) == NSDictionary(dictionary: decks.1), "\(seed): decks and options: Maeil \(decks.0), Anki \(decks.1)")
            let config = (maeil["config"] as? [String: Any] ?? [:], anki["config"] as? [String: Any] ?? [:])
            #expect(NSDictionary(dictionary: config.0) == NSDictionary(dictionary: config.1), "\(seed): the config: Maeil \(config.0), Anki \(config.1)")
        }
        return ankiCards.count
    }

    /// JSON values compared as text, a number and a flag alike.
    static func normalized(_ value: Any?) -> String {
        guard let value, !(value is NSNull) else { return "null" }
        return (try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }
}
