import Foundation
import GRDB
import MaeilCore
import MaeilSession
import MaeilStore
import Testing
import MaeilTestSupport

/// Anki's own backend (the `anki` package from PyPI that scripts/setup installs into
/// .build/anki-venv) on the other side of every path between Anki and Maeil:
/// scripts/anki/round-trip.py makes the collections, reads what Maeil writes, and reports.
enum AnkiLibrary {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = repository.appendingPathComponent("scripts/anki/round-trip.py").path

    /// The interpreter that has `anki`, if there is one: MAEIL_ANKI_PYTHON, else the virtual
    /// environment scripts/setup makes.
    static let python: String? = {
        let candidate = ProcessInfo.processInfo.environment["MAEIL_ANKI_PYTHON"]
            ?? repository.appendingPathComponent(".build/anki-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: candidate),
              let result = try? Binary.runProgram(candidate, ["-c", "import anki"]), result.status == 0 else { return nil }
        return candidate
    }()

    static let missing: Comment = "the anki Python package is not installed (scripts/setup installs it into .build/anki-venv; MAEIL_ANKI_PYTHON names another)"

    /// Runs a command of round-trip.py and returns the JSON object it prints.
    static func run(_ arguments: [String]) throws -> [String: Any] {
        let result = try Binary.runProgram(python!, [script] + arguments)
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw Failure("round-trip.py \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr.suffix(2000))")
        }
        return object
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

@Suite("Anki in both directions, read and written by Anki itself", .serialized)
struct AnkiRoundTripTests {
    let folder = Fixture.temporaryDirectory()
    var collection: String { folder.appendingPathComponent("maeil.sqlite").path }

    func maeil(_ arguments: [String], input: String = "") throws -> Binary.Result {
        let result = try Binary.run(arguments + ["--collection", collection], input: input,
                                    environment: ["MAEIL_SPEECH": "stub", "HOME": folder.path, "XDG_DATA_HOME": folder.path])
        #expect(result.status == 0, "maeil \(arguments.joined(separator: " ")): \(result.stderr)")
        return result
    }

    /// Maeil's deck list in the shape of Anki's (`counts` of round-trip.py's `decks`).
    func maeilCounts() throws -> [String: [String: Int]] {
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(maeil(["decks", "--json"]).stdout.utf8)) as? [[String: Any]])
        var counts: [String: [String: Int]] = [:]
        for row in rows {
            counts[row["name"] as? String ?? ""] = ["new": row["new"] as? Int ?? -1, "review": row["due"] as? Int ?? -1,
                                                    "learning": row["learning"] as? Int ?? -1]
        }
        return counts
    }

    /// Custom study's "increase today's limit" in Anki, on a deck and on its subdeck (sizes by
    /// seed), after a day's study up to the limits they share, and a card answered today moved
    /// to the other deck: Anki counts both below its log (the card's answer where it was then).
    /// Maeil's import of the collection counts each deck as Anki does; after Maeil studies on,
    /// Anki reading Maeil's .colpkg counts as Maeil. Before, Maeil took neither: the lifted
    /// limits were not there, and the moved card's answer counted in both decks.
    @Test(.enabled(if: AnkiLibrary.python != nil, AnkiLibrary.missing), .timeLimit(.minutes(40)), arguments: ["1", "2", "3", "4", "5"])
    func customStudyLiftsTodaysLimitsHereToo(seed: String) throws {
        let made = try AnkiLibrary.run(["custom-study", folder.path, seed])
        let ankiCounts = try #require(made["counts"] as? [String: [String: Int]])
        _ = try maeil(["import", folder.appendingPathComponent("custom-\(seed).colpkg").path, "--create"])
        #expect(try maeilCounts() == ankiCounts, "seed \(seed) \(made): Maeil's deck list against Anki's")
        // What Anki's Check Database finds in Anki's own package, Maeil's carries as it came: Anki
        // answering cards within a millisecond of each other logs an answer under the next free
        // millisecond, and where that is in the next second, the card's last review time is a
        // second before its log's (seen in 1 run in 7; "Added last review time to 2 cards").
        let ankisOwn = try AnkiLibrary.run(["decks", folder.appendingPathComponent("custom-\(seed).colpkg").path])["check"] as? String
        for deck in ["Study::More", "Study"] {
            _ = try maeil(["review", deck], input: "3\n3\n")
            let package = folder.appendingPathComponent("maeil-\(UUID().uuidString).colpkg").path
            _ = try maeil(["export", "--out", package])
            let read = try AnkiLibrary.run(["decks", package])
            #expect(read["counts"] as? [String: [String: Int]] == (try maeilCounts()),
                    "seed \(seed), studied on in \(deck): Anki's deck list of Maeil's .colpkg \(read["counts"] ?? "nil") against Maeil's")
            #expect(read["check"] as? String == ankisOwn, "\(read["check"] ?? "") where Anki's own package had \(ankisOwn ?? "")")
        }
    }

    /// A note whose cards Anki keeps in two decks (Browse › Change Deck on a reverse card; a card
    /// type's deck override): each card is studied in its own deck here, as in Anki (Maeil's deck
    /// list counts what Anki's does, and a reverse card shows its note's reverse template), and
    /// Maeil's .apkg and .colpkg put each card back in its deck as Anki reads them (each went to
    /// its note's deck before); a package with one card changed back to its note's deck,
    /// imported again, moves it there.
    @Test(.enabled(if: AnkiLibrary.python != nil, AnkiLibrary.missing), .timeLimit(.minutes(40)))
    func cardsInAnotherDeckThanTheirNoteGoBackThere() throws {
        let made = try AnkiLibrary.run(["split", folder.path])
        let decks = try #require(made["decks"] as? [String: String])
        #expect(Set(decks.values) == ["Words", "Words::Reverse", "Words::Elsewhere"], "\(decks)")
        _ = try maeil(["import", folder.appendingPathComponent("split.apkg").path, "--create"])
        let asAnkiCounts = try AnkiLibrary.run(["decks", folder.appendingPathComponent("split.apkg").path])["counts"] as? [String: [String: Int]]
        #expect(try maeilCounts() == asAnkiCounts, "imported: Maeil's deck list against Anki's \(asAnkiCounts ?? [:])")
        func expectAsAnki(_ expected: [String: String], _ context: String) throws {
            let counts = try maeilCounts()
            for format in ["apkg", "colpkg"] {
                let package = folder.appendingPathComponent("maeil-\(UUID().uuidString).\(format)").path
                _ = try maeil(["export", "--out", package])
                let read = try AnkiLibrary.run(["decks", package])
                #expect(read["decks"] as? [String: String] == expected, "\(context), .\(format): \(read["decks"] ?? "nil") against \(expected)")
                #expect(read["check"] as? String == "Database rebuilt and optimized.", "\(context), .\(format): \(read["check"] ?? "")")
                #expect(read["counts"] as? [String: [String: Int]] == counts, "\(context), .\(format): Anki's deck list \(read["counts"] ?? "nil") against Maeil's \(counts)")
            }
        }
        // Two reverse cards answered in their own deck: each asks its note's back.
        let review = try maeil(["review", "Words::Reverse"], input: "3\n3\n").stdout.split(separator: "\n").map(String.init)
        let questions = review.indices.filter { review[$0].hasPrefix("── Words::Reverse") }.map { review[$0 + 1] }
        #expect(questions == ["back 0", "back 1", "back 2"], "\(review)")
        try expectAsAnki(decks, "imported, two reverse cards answered")
        let movedBack = try #require(try AnkiLibrary.run(["move-back", folder.path])["decks"] as? [String: String])
        #expect(movedBack != decks)
        _ = try maeil(["import", folder.appendingPathComponent("split-again.apkg").path])
        try expectAsAnki(movedBack, "a card changed back in Anki, imported again")
        // The first reverse card, answered here, went back to its note's deck; the second stays, in learning.
        let counts = try maeilCounts()
        #expect(counts["Words::Reverse"] == ["new": 1, "review": 0, "learning": 1], "\(counts)")
        // Change Deck here: a note with both its cards, then a card alone; Anki reads each where it went.
        let store = try Collection(path: collection, readOnly: true)
        let (note, guid) = try #require(try store.read { db in
            try Row.fetchOne(db, sql: "SELECT id, guid FROM note WHERE (SELECT count(*) FROM card WHERE note_id = note.id) = 2 ORDER BY id LIMIT 1")
                .map { ($0[0] as Int64, $0[1] as String) }
        })
        let card = try #require(try store.read { db in
            try Int64.fetchOne(db, sql: "SELECT c.id FROM card c JOIN note n ON n.id = c.note_id WHERE n.id != ? AND c.ordinal = 0 ORDER BY c.id LIMIT 1", arguments: [note])
        })
        let cardGUID = try #require(try store.read { db in
            try String.fetchOne(db, sql: "SELECT n.guid FROM note n JOIN card c ON c.note_id = n.id WHERE c.id = ?", arguments: [card])
        })
        _ = try maeil(["move", "Words::Elsewhere", "\(note)"])
        _ = try maeil(["move", "Words::Reverse", "card:\(card)"])
        var moved = movedBack
        (moved["\(guid) 0"], moved["\(guid) 1"], moved["\(cardGUID) 0"]) = ("Words::Elsewhere", "Words::Elsewhere", "Words::Reverse")
        try expectAsAnki(moved, "a note and a card moved here")
        #expect(try maeil(["check"]).stdout.hasSuffix("ok\n"))
    }

    /// Anki makes two collections (an SM-2 deck with HTML, a cloze note, a picture, a sound,
    /// tags, a suspended and a buried card; an FSRS deck with its own retention and parameters;
    /// 150 reviews over 36 days) and exports them; Maeil imports both, answers 20 cards,
    /// exports; Anki takes the packages back into the collections they came from.
    @Test(.enabled(if: AnkiLibrary.python != nil, AnkiLibrary.missing), .timeLimit(.minutes(40)))
    func ankiToMaeilAndBack() throws {
        let made = try AnkiLibrary.run(["make", folder.path])
        let madeReviews = ["sm2", "fsrs"].map { ((made[$0] as? [String: Any])?["reviews"] as? Int) ?? 0 }
        #expect(madeReviews.reduce(0, +) == 150, "\(made)")
        let before = try ["sm2", "fsrs"].map { try AnkiLibrary.run(["dump", folder.path, $0]) }
        try FileManager.default.copyItem(at: folder.appendingPathComponent("sm2"), to: folder.appendingPathComponent("sm2-update"))
        try FileManager.default.copyItem(at: folder.appendingPathComponent("fsrs"), to: folder.appendingPathComponent("fsrs-update"))

        _ = try maeil(["import", folder.appendingPathComponent("sm2.apkg").path, folder.appendingPathComponent("fsrs.apkg").path, "--create"])

        // The FSRS deck schedules with FSRS at its retention, with its parameters; the SM-2 deck with SM-2.
        let store = try Collection(path: collection)
        let japanese = try #require(try store.decks().first { $0.name == "Japanese" })
        let korean = try #require(try store.decks().first { $0.name == "Korean" })
        let fsrsPreset = try store.preset(id: japanese.presetID).scheduler
        let ankiJapanese = try #require((before[1]["decks"] as? [String: Any])?["Japanese"] as? [String: Any])
        #expect(fsrsPreset.kind == .fsrs)
        #expect(fsrsPreset.desiredRetention == 0.85)
        #expect(fsrsPreset.fsrsParameters.weights == (ankiJapanese["fsrs_params"] as? [Double]))
        #expect(try store.preset(id: korean.presetID).scheduler.kind == .ankiSM2)

        // Twenty answers in Maeil, ten in each deck.
        let answers = ["3", "1", "3", "4", "2", "3", "3", "1", "3", "4"].joined(separator: "\n") + "\n"
        _ = try maeil(["review", "Japanese"], input: answers)
        _ = try maeil(["review", "Korean"], input: answers)
        let answered = try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0") ?? 0 }
        #expect(answered == 20)
        let fsrsAnswers = try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0 AND scheduler = 'fsrs'") ?? 0 }
        #expect(fsrsAnswers == 10)

        // The deck list as Maeil counts it after the answers, and the day's answers by the card each found.
        // Each deck's review limit is two more than the reviews answered (four and three were left due),
        // so the day's answers decide the count.
        for deck in ["Korean", "Japanese"] { _ = try maeil(["deck", deck, "set", "reviews_per_day", "12"]) }
        let maeilDecks = try #require(try JSONSerialization.jsonObject(with: Data(maeil(["decks", "--json"]).stdout.utf8)) as? [[String: Any]])
        let answeredToday = try store.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: """
                SELECT deck.name, total(b_phase = 'new'), total(b_phase = 'review'), total(duration_ms) FROM review_log
                JOIN deck ON deck.id = review_log.deck_id WHERE review_log.kind = 0 GROUP BY deck.name
                """).map { ($0[0] as String, [Int($0[1] as Double), Int($0[2] as Double), Int($0[3] as Double)]) })
        }
        for (name, deck) in [("sm2", "Korean"), ("fsrs", "Japanese")] {
            let apkg = folder.appendingPathComponent("\(deck).apkg").path, colpkg = folder.appendingPathComponent("\(deck).colpkg").path
            _ = try maeil(["export", deck, "--out", apkg])
            _ = try maeil(["export", deck, "--out", colpkg])

            // A package into the collection it came from: every note updated, none conflicting or duplicated.
            let updated = try AnkiLibrary.run(["update", folder.path, "\(name)-update", apkg])
            let notes = deck == "Korean" ? 12 : 15
            #expect(updated["updated"] as? Int == notes, "\(updated)")
            for outcome in ["new", "duplicate", "conflicting", "missing_notetype", "missing_deck", "first_field_match"] {
                #expect(updated[outcome] as? Int == 0, "\(outcome): \(updated)")
            }
            let afterUpdate = try AnkiLibrary.run(["dump", folder.path, "\(name)-update"])
            #expect(afterUpdate["check_database"] as? String == "Database rebuilt and optimized.")
            #expect(Self.notes(afterUpdate) == Self.notes(before[name == "sm2" ? 0 : 1]), "fields, tags and note types as Anki had them")

            // The collection package carries every schedule and the whole review log.
            _ = try AnkiLibrary.run(["replace", folder.path, name, colpkg])
            let after = try AnkiLibrary.run(["dump", folder.path, name])
            #expect(after["check_database"] as? String == "Database rebuilt and optimized.", "\(after["check_database"] ?? "")")
            #expect(after["sort_fields_anki_would_change"] as? Int == 0, "sfld and csum as Anki computes them")
            #expect((after["media_missing"] as? [String])?.isEmpty == true)
            #expect(after["media_files"] as? [String] == (deck == "Korean" ? ["dot.png", "hello.mp3"] : []))
            #expect(after["fsrs"] as? Bool == (deck == "Japanese"))
            #expect(Self.notes(after) == Self.notes(before[name == "sm2" ? 0 : 1]))
            let madeHere = (made[name] as? [String: Any])?["reviews"] as? Int ?? 0
            #expect(after["reviews"] as? Int == madeHere + 10, "Anki's reviews and Maeil's ten")
            if deck == "Japanese" {
                let options = (after["decks"] as? [String: Any])?["Japanese"] as? [String: Any]
                #expect(options?["desired_retention"] as? Double == 0.85)
                #expect(options?["fsrs_params"] as? [Double] == ankiJapanese["fsrs_params"] as? [Double])
            }
            try compareCards(after, deck: deck, store: store)
            // Anki counts the day's answers given in Maeil against the deck's limits, as its own:
            // its deck list shows what Maeil's shows, and the deck's counts of the day are Maeil's.
            let ankiDeck = try #require((after["decks"] as? [String: Any])?[deck] as? [String: Any])
            let row = try #require(maeilDecks.first { $0["name"] as? String == deck })
            #expect(ankiDeck["due_tree"] as? [String: Int] == ["new": row["new"] as? Int ?? -1, "review": row["due"] as? Int ?? -1, "learning": row["learning"] as? Int ?? -1],
                    "\(deck): Anki's deck list \(ankiDeck["due_tree"] ?? "") and Maeil's \(row)")
            let studied = ankiDeck["studied_today"] as? [String: Int]
            #expect([studied?["new"], studied?["review"], studied?["milliseconds"]] == (answeredToday[deck] ?? []).map { $0 }, "\(deck): the day's answers in Anki \(studied ?? [:])")
        }
    }

    /// Each card as Anki read it against Maeil's card: interval, due, ease, lapses, S and D, reviews.
    func compareCards(_ dump: [String: Any], deck name: String, store: Collection) throws {
        let deck = try #require(try store.decks().first { $0.name == name })
        let exported = try Exporter(collection: store).export([deck], now: Date(), timeZone: .current)
        // The zone the binary ran in (Binary.run's TZ), not this process's: from 04:00 to 20:00 UTC
        // their study days differ, and every review card read one day apart.
        let clock = DayClock(timeZone: try #require(TimeZone(identifier: Fixture.middayTimeZone)),
                             rolloverHour: try store.preset(id: deck.presetID).rolloverHour)
        let today = clock.dayNumber(of: Date())
        var maeilCards: [String: ExportCardSummary] = [:]
        for note in exported.decks[0].notes {
            for card in note.cards { maeilCards["\(note.guid)/\(card.ordinal)"] = ExportCardSummary(card.state, history: card.history) }
        }
        let ankiCards = try #require(dump["cards"] as? [[String: Any]])
        #expect(ankiCards.count == maeilCards.count)
        for anki in ankiCards {
            let key = "\(anki["guid"] as? String ?? "")/\(anki["ordinal"] as? Int ?? -1)"
            let state = try #require(maeilCards[key], "Anki has a card Maeil does not: \(key)")
            #expect(anki["lapses"] as? Int == state.state.lapses, "\(key)")
            #expect(anki["reps"] as? Int == state.state.reps, "\(key)")
            #expect(anki["reviews"] as? Int == state.reviews, "\(key)")
            switch state.state.phase {
            case .review:
                #expect(anki["type"] as? Int == 2, "\(key)")
                #expect(anki["interval"] as? Int == state.state.intervalDays, "\(key)")
                #expect(anki["due_in_days"] as? Int == state.state.due.map { clock.dayNumber(of: $0) - today }, "\(key)")
            case .learning, .relearning:
                #expect(anki["type"] as? Int == (state.state.phase == .learning ? 1 : 3), "\(key)")
                #expect((anki["due_at"] as? Int).map(Int64.init) == state.state.due.map { Int64($0.timeIntervalSince1970) }, "\(key)")
            case .new:
                #expect(anki["type"] as? Int == 0, "\(key)")
            }
            if let memory = state.state.memory {
                #expect(anki["stability"] as? Double == (memory.stability * 10_000).rounded() / 10_000, "\(key)")
                #expect(anki["difficulty"] as? Double == (memory.difficulty * 1000).rounded() / 1000, "\(key)")
            } else {
                #expect(anki["stability"] is NSNull, "\(key)")
                #expect(anki["ease"] as? Int == state.state.easePermille, "\(key)")
            }
        }
    }

    struct ExportCardSummary {
        let state: CardState
        let reviews: Int
        init(_ state: CardState, history: [ReviewLogEntry]) {
            self.state = state
            reviews = history.filter { $0.rating != nil }.count
        }
    }

    /// Notes as (guid, note type, fields, tags), in a stable order.
    static func notes(_ dump: [String: Any]) -> [String] {
        let cards = dump["cards"] as? [[String: Any]] ?? []
        return Set(cards.map { card in
            let fields = (card["fields"] as? [String] ?? []).joined(separator: "\u{1F}")
            return "\(card["guid"] ?? "") \(card["note_type"] ?? "") \(fields) \((card["tags"] as? [String] ?? []).joined(separator: " "))"
        }).sorted()
    }

    /// Maeil's text export, imported back into Maeil, changes nothing in the file (every table
    /// compared row by row); imported into a new Anki collection, every note arrives.
    @Test(.enabled(if: AnkiLibrary.python != nil, AnkiLibrary.missing), .timeLimit(.minutes(40)))
    func textRoundTrips() throws {
        _ = try AnkiLibrary.run(["make", folder.path])
        let decks = AnkiLibrary.repository.appendingPathComponent("Decks")
        _ = try maeil(["import", folder.appendingPathComponent("sm2.apkg").path, folder.appendingPathComponent("fsrs.apkg").path, "--create"])
        _ = try maeil(["import"] + ["hangul-jamo", "korean-practice", "memory-verses", "jlpt-n5-kanji"].map { decks.appendingPathComponent($0).path })
        _ = try maeil(["review"], input: String(repeating: "3\n", count: 15))
        let text = folder.appendingPathComponent("all.txt").path
        _ = try maeil(["export", "--out", text])

        let store = try Collection(path: collection)
        let tables = ["note", "card", "review_log", "deck", "note_type", "preset", "unit", "meta"]
        func dump() throws -> [String: [String]] {
            try store.read { db in
                try Dictionary(uniqueKeysWithValues: tables.map { table in
                    (table, try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1").map { $0.description })
                })
            }
        }
        let before = try dump()
        let reimported = try maeil(["import", text])
        #expect(!reimported.stdout.contains("updated,") || reimported.stdout.contains(" 0 updated"), "\(reimported.stdout)")
        #expect(!reimported.stdout.split(separator: "\n").contains { $0.contains("added") && !$0.contains(": 0 added, 0 updated") },
                "\(reimported.stdout)")
        let after = try dump()
        for table in tables {
            #expect(before[table] == after[table], "\(table) changed")
        }
        let notes = before["note"]?.count ?? 0

        let anki = try AnkiLibrary.run(["import-text", folder.path, text])
        #expect(anki["new"] as? Int == notes, "\(anki)")
        for outcome in ["updated", "duplicate", "conflicting", "missing_notetype", "missing_deck", "empty_first_field"] {
            #expect(anki[outcome] as? Int == 0, "\(outcome): \(anki)")
        }
        #expect(anki["notes"] as? Int == notes)
    }
}
