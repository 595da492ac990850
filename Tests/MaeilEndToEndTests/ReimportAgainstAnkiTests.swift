import Foundation
import GRDB
import MaeilCore
import MaeilDecks
import MaeilREPL
import MaeilSession
import MaeilStore
import Testing
import MaeilTestSupport

/// Issue 23's re-imports over the seeded collections (`SeededCollections`), a suite of its own so
/// that it runs beside `OneCollectionTests` (each takes about ten minutes on two cores).
@Suite("Re-imports against Anki, over seeded collections")
struct ReimportAgainstAnkiTests: SeededCollections {
    let folder = Fixture.temporaryDirectory()

    /// Issue 23, points 2 and 3: a package imported again after studying in Maeil, then the
    /// same collection studied on in Anki, in the zone it was made in; Maeil runs in the next
    /// zone (`makeCollections`). Maeil imports on day 41 of the collection's life
    /// (its clock moved with libfaketime), edits two notes, tags one, forgets a card and answers
    /// five; the same .apkg again changes none of that and adds no log row. Anki studies on from
    /// day 45, edits the second note and, every other seed, forgets the card forgotten here; its
    /// later .apkg, imported on day 58, brings every card
    /// Anki changed to Anki's state, the second note as Anki edited it and every Anki answer into
    /// the log exactly once, and keeps Maeil's answers and Maeil's edit of the first note (unless
    /// Anki's study changed that note too, tagging a leech: then the newer, Anki's, wins).
    // 201 seeds took 9.4 minutes alone on a slow two-core machine (99 by default now); the limit stops a hang, not
    // a slow machine.
    // A case for each zone the collections are studied in, so that the zones run side by side.
    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(40)),
          arguments: zones)
    func reimportMergesAsAnkiDoes(studiedIn: String) throws {
        let made = try makeCollections(firstSeed: 500, perZone: Self.fewerSeedsPerZone, studiedIn: studiedIn)
        let start = SeededAnki.start
        func date(_ day: Int, _ minutes: Int = 0) -> Date {
            Date(timeIntervalSince1970: TimeInterval(start + day * 86_400 + 2 * 3600 + minutes * 60))
        }
        func at(_ day: Int, _ minutes: Int = 0) -> [String: String] {
            let stamp = date(day, minutes)
            let format = DateFormatter()
            format.dateFormat = "yyyy-MM-dd HH:mm:ss"
            format.timeZone = TimeZone(identifier: "UTC")
            return ["LD_PRELOAD": AnkiPython.faketime, "FAKETIME": "@" + format.string(from: stamp)]
        }
        var merged = 0, kept = 0
        // Maeil's part before Anki studies on, seed by seed; then Anki's, one run a zone for all
        // its seeds (a Python process each took more than the study); then each seed's rest.
        var rests: [(seed: String, madeIn: String, forgottenInAnki: String?, rest: (_ studied: [String: Any], _ anki: [String: Any]) throws -> Void)] = []
        for (seed, madeIn, studiedIn) in made {
            let seedFolder = folder.appendingPathComponent(seed)
            let collection = seedFolder.appendingPathComponent("maeil.sqlite").path
            let package = seedFolder.appendingPathComponent("anki.apkg").path
            func run(_ arguments: [String], _ clock: [String: String], input: String = "") throws -> Binary.Result {
                let result = try Binary.run(arguments + ["--collection", collection], input: input, environment: clock.merging(
                    ["TZ": studiedIn, "HOME": folder.path, "XDG_DATA_HOME": folder.path, "MAEIL_SPEECH": "stub"]) { $1 })
                if result.status != 0 { throw OneCollectionTests.Failure("seed \(seed): maeil \(arguments.joined(separator: " ")): \(result.stdout)\(result.stderr)") }
                return result
            }
            // `maeil import` skips the cards it holds as the package has them (`KnownAnkiCards`):
            // two copies of the collection import the package at the same instant, one so and one
            // reading and merging every card, and end the same, row for row, saying the same.
            func importChecked(_ package: String, _ day: Int, _ minutes: Int = 0) throws -> Binary.Result {
                let result = try run(["import", package, "--json"], at(day, minutes))
                let copies = ["skipping", "reading-whole"].map { seedFolder.appendingPathComponent("\($0).sqlite").path }
                for copy in copies {
                    try? FileManager.default.removeItem(atPath: copy)
                    try DatabaseQueue(path: collection).backup(to: DatabaseQueue(path: copy))
                }
                var settings = ImportOptions()
                (settings.timeZone, settings.now) = (TimeZone(identifier: studiedIn)!, date(day, minutes))
                let options = settings
                let skipping = try Importer(collection: Collection(path: copies[0]), now: options.now)
                    .apply(ImportReading(files: [package], options: options))
                let whole = try Importer(collection: Collection(path: copies[1]), now: options.now).apply(reading: { emit in
                    try DeckReader.stream([package], options: options, emit: emit)
                })
                let summaries = try [skipping, whole].map { try JSONOutput.string($0) }
                #expect(summaries[0] == summaries[1], "seed \(seed): \(package)")
                let (skipped, read) = (try Self.everyRow(copies[0]), try Self.everyRow(copies[1]))
                for table in Set(skipped.keys).union(read.keys).sorted() where skipped[table] != read[table] {
                    let differing = zip(skipped[table] ?? [], read[table] ?? []).first { $0 != $1 }
                    Issue.record("seed \(seed): \(package): table \(table) differs from the whole reading's: \(String(describing: differing))")
                }
                return result
            }
            _ = try run(["import", package, "--create"], at(41))
            let store = try Collection(path: collection, readOnly: true)
            // The first two notes in Anki's order: Anki edits the second again after Maeil.
            let (noteID, secondNoteID, forgotten) = try store.read { db in
                let notes = try Int64.fetchAll(db, sql: "SELECT id FROM note ORDER BY anki_id LIMIT 2")
                return (notes[0], notes[1], try Int64.fetchOne(db, sql: "SELECT min(id) FROM card WHERE phase = 'review'"))
            }
            _ = try run(["edit", String(noteID)], at(41, 1), input: "edited in Maeil" + String(repeating: "\n", count: 9))
            _ = try run(["edit", String(secondNoteID)], at(41, 1), input: "edited in Maeil too" + String(repeating: "\n", count: 9))
            _ = try run(["tag", String(noteID), "+maeil-edit"], at(41, 2))
            if let forgotten { _ = try run(["forget", String(forgotten)], at(41, 3)) }
            _ = try run(["review"], at(41, 4), input: String(repeating: "3\n", count: 5))
            // Every other seed changes Korean's options here too: then Anki's change is not taken.
            let changedHere = Int(seed)! % 2 == 0
            if changedHere { _ = try run(["deck", "Korean", "set", "reviews_per_day", "150"], at(41, 5)) }
            func snapshot() throws -> [String] {
                try store.read { db in
                    try Row.fetchAll(db, sql: "SELECT id, field_values, tags, deck_id FROM note ORDER BY id").map(\.description)
                        + Row.fetchAll(db, sql: "SELECT * FROM card ORDER BY id").map(\.description)
                        + Row.fetchAll(db, sql: "SELECT id, card_id, anki_id, time FROM review_log ORDER BY id").map(\.description)
                }
            }
            let before = try snapshot()
            let again = try importChecked(package, 41, 10)
            let summary = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
            let deckSummaries = summary?["decks"] as? [[String: Any]] ?? []
            kept += deckSummaries.reduce(0) { $0 + ($1["kept"] as? Int ?? 0) }
            #expect(try snapshot() == before, "seed \(seed): the same package again changes nothing Maeil did")

            // Every other seed, Anki forgets the card forgotten here too, after its study: then the
            // card took Anki's state and has it already, and its log must still end with it.
            let forgottenInAnki = Int(seed)! % 2 == 0 ? nil : try forgotten.flatMap { card in
                try store.read { db in try Int64.fetchOne(db, sql: "SELECT anki_id FROM card WHERE id = ?", arguments: [card]) }
            }.map(String.init)
            rests.append((seed, madeIn, forgottenInAnki, { studied, anki in
                let later = try importChecked(seedFolder.appendingPathComponent("later.apkg").path, 58)
                let laterSummary = (try JSONSerialization.jsonObject(with: Data(later.stdout.utf8)) as? [String: Any])?["decks"] as? [[String: Any]] ?? []
                // Point 3: the note Anki moved to another deck is moved here too, and said so.
                let moved = try #require(studied["moved"] as? [String: String])
                #expect(laterSummary.first { $0["name"] as? String == moved["to"] }?["moved"] as? Int == 1, "seed \(seed): \(laterSummary)")
                #expect(laterSummary.allSatisfy { ($0["gone"] as? [String] ?? []).isEmpty }, "seed \(seed): a moved note is not gone: \(laterSummary)")
                // Point 3: options Anki changed are taken, unless changed here too (then kept, and said).
                // The decks that share Korean's options: the first of them takes (or keeps) them.
                let korean = laterSummary.first { $0["options_taken"] as? Int == 1 || $0["options_kept"] as? Int == 1 } ?? [:]
                let options = try store.read { try Row.fetchOne($0, sql: "SELECT new_per_day, reviews_per_day FROM preset JOIN deck ON deck.preset_id = preset.id WHERE deck.name = 'Korean'")! }
                if changedHere {
                    #expect(korean["options_kept"] as? Int == 1 && options[1] as Int == 150 && options[0] as Int != 17, "seed \(seed): \(korean) \(options)")
                } else {
                    #expect(korean["options_taken"] as? Int == 1 && options[0] as Int == 17, "seed \(seed): \(korean) \(options)")
                }
                // The note edited here, as Anki holds it now. Anki's study may have changed it since
                // (a card of it turned leech, and Anki tagged it): then the newer, Anki's, wins.
                let editedAt = Int64(start + 41 * 86_400 + 2 * 3600 + 60)
                let noteInAnki = try store.read { db in try Int64.fetchOne(db, sql: "SELECT anki_id FROM note WHERE id = ?", arguments: [noteID]) }
                let ankiNote = (anki["cards"] as? [String: [String: Any]] ?? [:]).values.first { $0["note_id"] as? Int64 == noteInAnki }
                let ankiChangedIt = (ankiNote?["note_mod"] as? Int64 ?? 0) > editedAt + 60
                // Kept: only the first note edited here, unless Anki changed it since (a moved note is
                // not said to be kept for its place); the second, edited in Anki later, is Anki's.
                #expect(laterSummary.reduce(0) { $0 + ($1["kept"] as? Int ?? 0) } == (ankiChangedIt ? 0 : 1), "seed \(seed): \(laterSummary)")
                let importedAt = Int64(start + 41 * 86_400 + 2 * 3600)
                let maeilCards = try store.read { db in
                    try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: """
                        SELECT card.id, phase, interval_days, reps, lapses, due, anki_custom_data, preset.rollover_hour
                        FROM card JOIN deck ON deck.id = card.deck_id JOIN preset ON preset.id = deck.preset_id
                        """).map { row in
                        (row[0] as Int64, row)
                    })
                }
                let logs = try store.read { db in try Row.fetchAll(db, sql: "SELECT card_id, anki_id FROM review_log WHERE anki_id IS NOT NULL") }
                var cardOfLog: [Int64: Int64] = [:]
                var timesLogged: [Int64: Int] = [:]
                for row in logs {
                    cardOfLog[row[1]] = row[0]
                    timesLogged[row[1], default: 0] += 1
                }
                #expect(timesLogged.values.allSatisfy { $0 == 1 }, "seed \(seed): an Anki log row twice")
                let decksOfCards = try store.read { db in
                    try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: """
                        SELECT card.anki_id, deck.name FROM card JOIN deck ON deck.id = card.deck_id WHERE card.anki_id IS NOT NULL
                        """).map { ($0[0] as Int64, $0[1] as String) })
                }
                for (key, value) in anki["cards"] as? [String: [String: Any]] ?? [:] {
                    // A card Anki keeps in another deck than its note's is in that deck here too.
                    if let id = value["id"] as? Int64, let deck = decksOfCards[id] {
                        #expect(deck == value["deck"] as? String, "seed \(seed): \(key) is in \(deck) here, in \(value["deck"] ?? "") in Anki")
                    }
                    let revlog = value["revlog"] as? [[Int64]] ?? []
                    let answers = revlog.filter { $0[1] > 0 && $0[6] <= 3 }
                    guard let cardID = answers.lazy.compactMap({ cardOfLog[$0[0]] }).first, let card = maeilCards[cardID] else {
                        #expect(answers.isEmpty, "seed \(seed): card \(key)'s answers are not in Maeil's log")
                        continue
                    }
                    for answer in answers { #expect(cardOfLog[answer[0]] == cardID, "seed \(seed): \(key)'s answer \(answer[0])") }
                    guard let modified = value["mod"] as? Int64, modified > importedAt + 600 else { continue }
                    merged += 1
                    let phases = ["new", "learning", "review", "relearning"]
                    #expect(card[1] as String == phases[value["type"] as? Int ?? 0], "seed \(seed): \(key) changed in Anki")
                    #expect(card[2] as Int == value["interval"] as? Int, "seed \(seed): \(key)")
                    #expect(card[3] as Int == value["reps"] as? Int && card[4] as Int == value["lapses"] as? Int, "seed \(seed): \(key)")
                    #expect(card[6] as String? ?? "" == value["custom_data"] as? String, "seed \(seed): \(key)'s custom data")
                    if value["type"] as? Int == 2, let due = card[5] as Int64? {
                        // A date where Maeil runs, its day starting at the hour Maeil's options say.
                        let clock = DayClock(timeZone: TimeZone(identifier: studiedIn)!, rolloverHour: card[7])
                        let day = DayClock.civil(clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(due))))
                        #expect(String(format: "%04d-%02d-%02d", day.year, day.month, day.day) == value["due_date"] as? String, "seed \(seed): \(key)")
                    }
                }
                #expect(try run(["check"], at(58, 1)).stdout.hasSuffix("ok\n"), "seed \(seed): maeil check after the merge")
                let notes = try store.read { db in try Row.fetchOne(db, sql: "SELECT field_values, tags FROM note WHERE id = ?", arguments: [noteID])! }
                let second = try store.read { db in try Row.fetchOne(db, sql: "SELECT field_values, tags FROM note WHERE id = ?", arguments: [secondNoteID])! }
                #expect((second[0] as String).hasPrefix("edited in Anki later\u{1f}") && (second[1] as String).contains(" anki-edit "),
                        "seed \(seed): a note edited here, then in Anki, is Anki's: \(second)")
                if ankiChangedIt, let ankiNote {
                    #expect(notes[0] as String == (ankiNote["fields"] as? [String] ?? []).joined(separator: "\u{1f}"), "seed \(seed): Anki's later edit wins")
                    #expect((notes[1] as String).split(separator: " ").map(String.init).sorted() == ankiNote["tags"] as? [String], "seed \(seed)")
                } else {
                    #expect((notes[0] as String).hasPrefix("edited in Maeil"), "seed \(seed): Maeil's edit, untouched in Anki since, stays")
                    #expect((notes[1] as String).contains(" maeil-edit "), "seed \(seed)")
                }
            }))
        }
        for zone in Self.zones {
            let here = rests.filter { $0.madeIn == zone }
            guard !here.isEmpty else { continue }
            let specs = here.map { $0.seed + ($0.forgottenInAnki.map { ":" + $0 } ?? "") }
            let studied = try seeded(["study", folder.path, "10"] + specs, zone: zone)
            let anki = try ankiRead(here.map { folder.appendingPathComponent("\($0.seed)/collection.anki2").path }, zone: zone)
            for entry in here {
                try entry.rest(try #require(studied[entry.seed] as? [String: Any]),
                               try #require(anki[folder.appendingPathComponent("\(entry.seed)/collection.anki2").path]))
            }
        }
        #expect(kept == 2 * made.count, "the same package again: the notes edited in Maeil are said to be kept, two a seed")
        #expect(merged > 10 * made.count / 3, "cards Anki changed after the first import: \(merged)")
    }
}
