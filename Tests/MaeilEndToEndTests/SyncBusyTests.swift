import Foundation
import GRDB
import MaeilCore
import MaeilStore
import Testing
import MaeilTestSupport

/// Both sides busy between syncs, as a learner with a phone is: each round Maeil reviews, edits,
/// tags, stars, flags, suspends, forgets, sets due dates, deletes and adds, and the phone
/// (Anki's own client, scripts/anki/phone.py busy) studies, edits, adds, deletes, moves, flags,
/// suspends, buries, forgets and sets due dates, each drawn from the seed; then both sync, in
/// either order. Once each side synced twice, a third sync here finds nothing to carry, and
/// the phone's collection and this one, each as Anki reads it, hold the same cards with the
/// same notes, schedules and answers. A fixed case per scenario cannot find what a mix does:
/// this found a card Anki keeps though its note no longer gives it (a cloze number taken out
/// here) dropped, answers and all, when a sync rebuilt the collection; answers given here
/// numbered afresh by each export, so a .colpkg or a deleted card's answers went out under
/// other ids than the server's (and the server counted one twice); and a change sent a second
/// ahead of its time, which tied with the phone's change in that second.
extension SyncTests {
    /// MAEIL_BUSY_SEEDS=N runs N seeds instead of the suite's three, from MAEIL_BUSY_FIRST on
    /// (331 unless set; seeds 331 to 354 passed on 2026-11-29, and 355 to 390 on 2026-12-06 once
    /// seed 377 no longer kept twice the answers given here to a card the phone deleted; 441 to
    /// 480 on 2026-12-06 once a phone's answers to a card made here, then deleted, joined it
    /// (445, 462, 477), but for seed 466 once under load: an answer here and a row of the
    /// phone's took one Anki id, both sides' clocks standing at the same millisecond, which
    /// `SyncTests.aPhonesAnswerInTheMillisecondOfOneHereKeepsBoth` now holds; 541 to 620 on
    /// 2026-12-06 once records made here moved off ids the phone's held; 621 to 640 too, but
    /// for seed 629 once in two runs: answers given here in one second were on the phone under
    /// other ids than in this side's export, one of them twice, not found since).
    static let busySeeds: [String] = {
        let environment = ProcessInfo.processInfo.environment
        let first = Int(environment["MAEIL_BUSY_FIRST"] ?? "") ?? 331
        return (first..<(first + max(1, Int(environment["MAEIL_BUSY_SEEDS"] ?? "") ?? 3))).map(String.init)
    }()

    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(40)), arguments: busySeeds)
    func busyOnBothSidesTheSidesAgree(seed: String) throws {
        let (server, collection, state, phonePath, login) = try sharedWithThePhone(seed)
        var rng = SeededGenerator(seed: UInt64(seed)!)
        for round in 0..<4 {
            let here = try busyHere(collection, state: state, round: round, rng: &rng)
            if Bool.random(using: &rng) { #expect(try maeil(["sync"], collection, state: state).status == 0) }
            // A second apart, as two devices are: a card's modification time is in whole seconds,
            // and a tie between two changes of one card in one second is Anki's to break either way.
            usleep(1_100_000)
            let there = try phone(["busy", phonePath] + login + ["\(seed)\(round)"])
            usleep(1_100_000)
            for _ in 0..<2 {
                let synced = try maeil(["sync"], collection, state: state)
                #expect(synced.status == 0, "\(synced.stdout)\(synced.stderr)")
                _ = try phone(["sync", phonePath] + login)
            }
            let context = "seed \(seed), round \(round): here \(here); on the phone \(there["did"] ?? [])"
            let again = try maeil(["sync"], collection, state: state)
            #expect(again.stdout == "Already in sync with \(server.endpoint).\n", "\(context): \(again.stdout)\(again.stderr)")
            try expectTheSame(phonePath, collection, state: state, context: context)
        }
        let checked = try maeil(["check"], collection, state: state)
        #expect(checked.stdout.hasSuffix("ok\n"), "seed \(seed): \(checked.stdout)\(checked.stderr)")
    }

    /// What a learner does here in a day, drawn from `rng`; says what it did.
    func busyHere(_ collection: String, state: String, round: Int, rng: inout SeededGenerator) throws -> [String] {
        var did: [String] = []
        func run(_ arguments: [String], input: String = "") throws {
            let result = try maeil(arguments, collection, input: input, state: state)
            #expect(result.status == 0, "maeil \(arguments.joined(separator: " ")): \(result.stderr)")
            did.append(arguments.joined(separator: " "))
        }
        let answers = (0..<Int.random(in: 0...12, using: &rng)).map { _ in "\n\([1, 2, 3, 3, 3, 4].randomElement(using: &rng)!)\n" }
        try run(["review"], input: answers.joined() + "q\n")
        let store = try Collection(path: collection, readOnly: true)
        let (notes, cards, decks) = try store.read { db in
            (try Int64.fetchAll(db, sql: "SELECT id FROM note ORDER BY id"),
             try Row.fetchAll(db, sql: "SELECT id, note_id FROM card ORDER BY id").map { (id: $0[0] as Int64, note: $0[1] as Int64) },
             try String.fetchAll(db, sql: "SELECT name FROM deck WHERE id IN (SELECT deck_id FROM note) ORDER BY name"))
        }
        for note in notes.shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng)) {
            // The first field replaced (a cloze note's deletions with it), the others kept.
            try run(["edit", String(note)], input: "here \(round)\n" + String(repeating: "\n", count: 8))
        }
        for note in notes.shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng)) { try run(["tag", String(note), "+here"]) }
        for card in cards.shuffled(using: &rng).prefix(Int.random(in: 0...4, using: &rng)) {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: try run(["flag", String(Int.random(in: 0...7, using: &rng)), "card:\(card.id)"])
            case 1: try run(["set-due", ["0", "1", "2-4", "5!"].randomElement(using: &rng)!, "card:\(card.id)"])
            case 2: try run(["forget", String(card.id)])
            case 3: try run(["star", String(card.note)])
            case 4: try run(["suspend", String(card.note)])
            default: try run(["unsuspend", String(card.note)])
            }
        }
        if Double.random(in: 0..<1, using: &rng) < 0.4, let note = notes.randomElement(using: &rng) { try run(["delete", String(note), "--yes"]) }
        if Double.random(in: 0..<1, using: &rng) < 0.5, let deck = decks.randomElement(using: &rng) {
            try run(["add", deck], input: "여기 \(round)\nadded here\n\n\n")
        }
        return did
    }

    /// The phone's collection and this one's exported to a .colpkg (where it is given), each as
    /// seeded.py reads it.
    func readBothSides(_ phonePath: String, _ collection: String, state: String) throws -> (phone: [String: Any], here: [String: Any], export: String) {
        let export = folder.appendingPathComponent("busy-\(UUID().uuidString).colpkg").path
        let exported = try maeil(["export", "--out", export], collection, state: state)
        #expect(exported.status == 0, "\(exported.stderr)")
        // Read from a copy: reading runs Anki's Check Database, which may change the file it reads
        // (a card's last review time where the phone's own older row won), and with it the schema.
        let phoneCopy = folder.appendingPathComponent("busy-\(UUID().uuidString).anki2").path
        try FileManager.default.copyItem(atPath: phonePath, toPath: phoneCopy)
        let read = try seeded(["read", phoneCopy, export])
        return (read[phoneCopy] as? [String: Any] ?? [:], read[export] as? [String: Any] ?? [:], export)
    }

    /// The phone's collection and this one's, each as Anki reads it (this one from its .colpkg):
    /// every card of each on the other, with the same note, schedule, memory and answers, and the
    /// same answers of deleted cards.
    func expectTheSame(_ phonePath: String, _ collection: String, state: String, context: String) throws {
        let (there, here, export) = try readBothSides(phonePath, collection, state: state)
        let (phoneCards, maeilCards) = (there["cards"] as? [String: [String: Any]] ?? [:], here["cards"] as? [String: [String: Any]] ?? [:])
        #expect(!phoneCards.isEmpty)
        #expect(Set(phoneCards.keys) == Set(maeilCards.keys),
                "\(context): cards only on the phone \(Set(phoneCards.keys).subtracting(maeilCards.keys).sorted()), only here \(Set(maeilCards.keys).subtracting(phoneCards.keys).sorted())")
        let compared = ["id", "note_id", "type", "queue", "interval", "ease", "reps", "lapses", "flags", "deck", "due_date", "due_at",
                        "stability", "difficulty", "fields", "tags", "revlog"]
        for (key, phoneCard) in phoneCards.sorted(by: { $0.key < $1.key }) {
            guard let maeilCard = maeilCards[key] else { continue }
            let differing = compared.filter { !NSDictionary(dictionary: ["v": phoneCard[$0] ?? NSNull()]).isEqual(to: ["v": maeilCard[$0] ?? NSNull()]) }
            #expect(differing.isEmpty, "\(context): card \(key) differs in \(differing.map { "\($0): phone \(phoneCard[$0] ?? "nil"), here \(maeilCard[$0] ?? "nil")" })")
        }
        #expect(NSDictionary(dictionary: there["gone_revlog"] as? [String: Any] ?? [:]).isEqual(to: here["gone_revlog"] as? [String: Any] ?? [:]),
                "\(context): answers of deleted cards differ")
        // The base the next sync compares with is this collection as Anki's file, row for row: a
        // row that differed would go up as changed the next time a write marks its note, newer
        // than a phone's change it never saw.
        let stale = try phone(["differs", collection + ".sync-base", export])
        for table in ["cards", "notes"] {
            let rows = stale[table] as? [String: Any] ?? [:]
            #expect(rows.isEmpty, "\(context): \(table) differ from the sync base: \(rows)")
        }
    }
}
