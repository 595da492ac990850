import Foundation
import MaeilCore
import MaeilTestSupport
import Testing

/// Issue 23, point 6: Anki's display order (new/review mix, interday learning mix, review order,
/// new-card gather and sort), its three burying switches and its daily limits as a tree (a deck's
/// limits cap its subdecks'), used where Maeil has the feature, its queue. Seeded collections
/// (scripts/anki/seeded.py) in three time zones, imported from their .colpkg; for random sets of
/// options, Anki's own queue of deck Korean (`seeded.py queue`) against `maeil queue Korean
/// --json`, minutes after the last answers and two days later. The reviews are the same cards in
/// the same order: what a review order leaves tied goes by Anki's hash of a card's id and
/// modification time on both sides (`AnkiTieBreak`), except where it is by retrievability,
/// which each side works out in floating point. Where Anki gathers or sorts new cards at random,
/// the two lines are held against each other by what the order sorts by: the same kind of card
/// at every place, the same cards, and within each kind the same sequence of sort keys.
@Suite("Display order against Anki's queue", .serialized)
struct DisplayOrderAgainstAnkiTests {
    static let zones = ["Asia/Seoul", "Europe/London", "America/New_York"]
    static let seedsPerZone = max(1, (Int(ProcessInfo.processInfo.environment["MAEIL_ANKI_SEEDS"] ?? "") ?? 6) / zones.count)
    let folder = Fixture.temporaryDirectory()
    var anki: SeededAnki { SeededAnki(folder: folder) }

    /// New cards from Anki come by their own positions in Anki's new queue, as Anki gathers
    /// them: notes added to a deck and its subdeck in turn (Maeil's import numbers them deck by
    /// deck; the queue came in that order under "ascending position"), and a card forgotten to
    /// the end while its sibling keeps its place. Each gather order (`seeded.py positions`).
    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)))
    func newCardsFromAnkiComeByTheirOwnPositions() throws {
        let shown = try anki.python(["positions", folder.path], zone: "UTC")
        for gather in ["0", "1", "2"] {
            let collection = folder.appendingPathComponent("maeil-\(gather).sqlite").path
            let environment = ["TZ": "UTC", "HOME": folder.path, "XDG_DATA_HOME": folder.path]
            let imported = try Binary.run(["import", folder.appendingPathComponent("\(gather).colpkg").path, "--create", "--collection", collection],
                                          environment: environment)
            #expect(imported.status == 0, "\(imported.stderr)")
            let queue = try Binary.run(["queue", "Korean", "--json", "--collection", collection], environment: environment)
            let cards = try JSONSerialization.jsonObject(with: Data(queue.stdout.utf8)) as? [[String: Any]] ?? []
            let expected = shown[gather] as? [Int64] ?? []
            #expect(expected.count == 7 && cards.compactMap { $0["anki_id"] as? Int64 } == expected, "gather \(gather): \(queue.stdout) \(queue.stderr)")
        }
    }

    /// One set of display options and burying switches, as Anki's numbers.
    struct Options {
        var newMix: StudyOrder.Mix, interdayMix: StudyOrder.Mix, reviews: StudyOrder.ReviewOrder
        var gather: StudyOrder.NewGather, sort: StudyOrder.NewSort
        var buryNew = false, buryReviews = false, buryInterday = false
        /// New and review limits of the preset Korean and its subdecks share ("Shared") and of the
        /// one Korean::Phrases has ("Default"); nil lifts them. Korean's cap its subdecks'.
        var limits: [String: [Int]]?
        /// The deck studied: Korean, or its subdeck Korean::Food (where every parent's limits can apply).
        var studied = "Korean"
        /// The collection's rules for limits.
        var ignoreReviews = false, allParents = false
        /// Korean::Food's own new and review limits, and Korean's for today only; nil: none.
        var foodLimits: [Int?] = [nil, nil], koreanToday: [Int?] = [nil, nil]

        var anki: [String: Any] {
            ["limits": limits ?? [:], "newMix": newMix.ankiValue, "interdayLearningMix": interdayMix.ankiValue, "reviewOrder": reviews.ankiValue,
             "newGatherPriority": gather.ankiValue, "newSortOrder": sort.ankiValue, "buryNew": buryNew, "buryReviews": buryReviews,
             "buryInterday": buryInterday, "studied": studied, "ignoreReviews": ignoreReviews, "allParents": allParents,
             "foodLimits": foodLimits.map { $0 ?? NSNull() as Any }, "koreanToday": koreanToday.map { $0 ?? NSNull() as Any }]
        }

        var maeil: [(String, String)] {
            [("new_mix", newMix.rawValue), ("interday_learning_mix", interdayMix.rawValue), ("review_order", reviews.rawValue),
             ("new_gather_order", gather.rawValue), ("new_sort_order", sort.rawValue), ("bury_new", String(buryNew)),
             ("bury_reviews", String(buryReviews)), ("bury_interday_learning", String(buryInterday))]
        }

        /// The limits as `deck … set` words, for the deck that holds each preset, each deck's
        /// own, and the collection's rules. (A limit for today is set on the day compared first.)
        var maeilLimits: [(deck: String, key: String, value: String)] {
            func text(_ limit: Int?) -> String { limit.map(String.init) ?? DeckLimitKey.clear }
            return [("Korean", "Shared"), ("Korean::Phrases", "Default")].flatMap { deck, preset in
                let pair = limits?[preset] ?? [9999, 9999]
                return [(deck, "new_per_day", String(pair[0])), (deck, "reviews_per_day", String(pair[1]))]
            } + [("Korean::Food", "deck_new_per_day", text(foodLimits[0])), ("Korean::Food", "deck_reviews_per_day", text(foodLimits[1])),
                 ("Korean", "today_new_per_day", text(koreanToday[0])), ("Korean", "today_reviews_per_day", text(koreanToday[1])),
                 ("Korean", "new_cards_ignore_review_limit", String(ignoreReviews)), ("Korean", "apply_all_parent_limits", String(allParents))]
        }

        var buries: Bool { buryNew || buryReviews || buryInterday }
        /// Whether a limit may cut between cards Anki orders at random.
        var cutsByLimits: Bool { limits != nil || (foodLimits + koreanToday).contains { $0 != nil } }

        static func random(_ generator: inout SeededGenerator) -> Options {
            var options = randomOrders(&generator)
            func limit(_ upTo: Int) -> Int? { Bool.random(using: &generator) ? nil : Int.random(in: 0...upTo, using: &generator) }
            options.studied = Bool.random(using: &generator) ? "Korean" : "Korean::Food"
            (options.ignoreReviews, options.allParents) = (Bool.random(using: &generator), Bool.random(using: &generator))
            options.foodLimits = [limit(5), limit(7)]
            options.koreanToday = [limit(6), limit(9)]
            return options
        }

        static func randomOrders(_ generator: inout SeededGenerator) -> Options {
            Options(newMix: StudyOrder.Mix.allCases.randomElement(using: &generator)!, interdayMix: StudyOrder.Mix.allCases.randomElement(using: &generator)!,
                    reviews: StudyOrder.ReviewOrder.allCases.randomElement(using: &generator)!,
                    gather: StudyOrder.NewGather.allCases.randomElement(using: &generator)!, sort: StudyOrder.NewSort.allCases.randomElement(using: &generator)!,
                    buryNew: Bool.random(using: &generator), buryReviews: Bool.random(using: &generator), buryInterday: Bool.random(using: &generator),
                    limits: Bool.random(using: &generator) ? nil : ["Shared": [Int.random(in: 0...6, using: &generator), Int.random(in: 0...8, using: &generator)],
                                                                    "Default": [Int.random(in: 0...6, using: &generator), Int.random(in: 0...8, using: &generator)]])
        }
    }

    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(40)))
    func queuesAsAnkiQueues() throws {
        var compared = 0, cards = 0, deckRows = 0, differences: [String] = []
        var seen = (mixes: Set<String>(), reviews: Set<String>(), gathers: Set<String>(), sorts: Set<String>(), burials: Set<String>())
        for seed in try anki.imported(zones: Self.zones, first: 1300, perZone: Self.seedsPerZone,
                                      only: ProcessInfo.processInfo.environment["MAEIL_DISPLAY_SEEDS"]) {
            let (zone, last, collection, seedFolder) = (seed.zone, seed.last, seed.collection, seed.folder)
            var generator = SeededGenerator(seed: UInt64(seed.name)!)
            let options = [Options(newMix: .mixed, interdayMix: .mixed, reviews: .dueDate, gather: .deck, sort: .templateThenGather)]
                + (0..<4).map { _ in Options.random(&generator) }
            let optionsFile = seedFolder.appendingPathComponent("orders.json")
            try JSONSerialization.data(withJSONObject: options.map(\.anki)).write(to: optionsFile)
            let moments = [last + 600, last + 2 * 86_400 + 7 * 3600]
            var ankiQueues: [Int: [Any]] = [:]
            for moment in moments {
                ankiQueues[moment] = try #require(try anki.pythonValue(["queue", seedFolder.appendingPathComponent("collection.anki2").path, String(moment),
                                                                        optionsFile.path], zone: zone) as? [Any])
            }
            for (number, option) in options.enumerated() {
                // A limit for today is Anki's for the day it is read on (seeded.py sets it then): here too.
                let (today, always) = (option.maeilLimits.filter { $0.key.hasPrefix("today_") }, option.maeilLimits.filter { !$0.key.hasPrefix("today_") })
                // The options at one prompt, and each moment's commands at another: a process for each
                // command was most of this test's time.
                _ = try anki.prompt(["Korean", "Korean::Phrases"].flatMap { deck in option.maeil.map { ["deck", deck, "set", $0.0, $0.1] } }
                                    + always.map { ["deck", $0.0, "set", $0.1, $0.2] }, collection, zone, at: last + 600)
                seen.mixes.insert(option.newMix.rawValue)
                seen.reviews.insert(option.reviews.rawValue)
                seen.gathers.insert(option.gather.rawValue)
                seen.sorts.insert(option.sort.rawValue)
                seen.burials.insert("\(option.buryNew)\(option.buryReviews)\(option.buryInterday)")
                for moment in moments {
                    let output = try anki.prompt(today.map { ["deck", $0.0, "set", $0.1, $0.2] }
                                                 + [["queue", option.studied, "--json", "--limit", "100000"], ["decks", "--json"]], collection, zone, at: moment)
                    let printed = try SeededAnki.jsonArrays(output)
                    try #require(printed.count == 2, "the queue and the deck list: \(output.suffix(2000))")
                    let (rows, list) = (printed[0], printed[1])
                    let expected = try #require(ankiQueues[moment]?[number] as? [String: Any])
                    let label = "seed \(seed.name) (\(zone)), \(moment == moments[0] ? "same day" : "two days later"), \(option.studied), "
                        + "\(option.maeil.map(\.1)) \(option.maeilLimits.map(\.value))"
                    if let difference = try Self.compare(maeil: rows, anki: expected, option: option, fsrs: seed.made["fsrs"] as? Bool == true) {
                        differences.append("\(label): \(difference)")
                    }
                    compared += 1
                    cards += (expected["queue"] as? [Any])?.count ?? 0
                    // The deck list: each deck's reviews and new cards, its subdecks' within its limits.
                    let ankiList = try #require(expected["deck_list"] as? [String: [Int]])
                    for row in list {
                        guard let name = row["name"] as? String, name == "Korean" || name.hasPrefix("Korean::") else { continue }
                        let counts = [row["due"] as? Int ?? -1, row["new"] as? Int ?? -1]
                        if ankiList[name] != counts { differences.append("\(label): deck list \(name) Anki \(ankiList[name] ?? []) Maeil \(counts)") }
                        deckRows += 1
                    }
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.count) of \(compared) queues differ:\n\(differences.prefix(20).joined(separator: "\n"))")
        #expect(cards > compared * 3, "the queues compared hold \(cards) cards in all")
        // Enough seeds to meet every choice at least once: a choice never made would pass whatever Maeil did.
        if Self.seedsPerZone >= 2, ProcessInfo.processInfo.environment["MAEIL_DISPLAY_SEEDS"] == nil {
            #expect(seen.mixes.count == 3 && seen.gathers.count >= 5 && seen.sorts.count >= 4 && seen.reviews.count >= 10 && seen.burials.count >= 6,
                    "\(seen)")
        }
        #expect(deckRows >= compared * 3, "deck list rows compared: \(deckRows)")
        print("display order against Anki: \(compared) queues, \(cards) cards, \(deckRows) deck list rows, \(differences.count) differ")
    }

    /// Where the two queues part, or nil.
    static func compare(maeil rows: [[String: Any]], anki expected: [String: Any], option: Options, fsrs: Bool) throws -> String? {
        let later = Set((expected["later"] as? [Int64]) ?? [])
        let ankiLine = try #require(expected["queue"] as? [[Int64]]).map { (id: $0[0], kind: Int($0[1])) }
        let maeilLine = rows.compactMap { row -> (id: Int64, kind: Int)? in
            let id = (row["anki_id"] as? Int64) ?? -1
            guard !later.contains(id) else { return nil }
            let kind = switch row["state"] as? String { case "new": 0; case "review": 2; default: 1 }
            return (id, kind)
        }
        if ankiLine.map(\.kind) != maeilLine.map(\.kind) {
            return "kinds Anki \(ankiLine.map(\.kind)) Maeil \(maeilLine.map(\.kind))"
        }
        if ![.ascendingRetrievability, .descendingRetrievability, .relativeOverdueness].contains(option.reviews) {
            let (ankiReviews, maeilReviews) = (ankiLine.filter { $0.kind == 2 }.map(\.id), maeilLine.filter { $0.kind == 2 }.map(\.id))
            if ankiReviews != maeilReviews { return "reviews Anki \(ankiReviews) Maeil \(maeilReviews)" }
        }
        let facts = try #require(expected["facts"] as? [String: [String: Any]])
        func fact(_ id: Int64, _ name: String) -> Double { (facts[String(id)]?[name] as? NSNumber)?.doubleValue ?? -.infinity }
        if Set(ankiLine.map(\.id)) != Set(maeilLine.map(\.id)) {
            // Where Anki breaks a tie at random, it may keep another of two siblings due the same
            // day than Maeil keeps: the same notes, of the same kinds, are the same queue.
            func notes(_ line: [(id: Int64, kind: Int)]) -> [String] { line.map { "\(fact($0.id, "nid"))/\($0.kind)" }.sorted() }
            // Where a limit cuts between cards Anki orders at random (a due date's ties, a random
            // gather), which it keeps is Anki's hash: the kinds at every place (how many of each,
            // how mixed) were held above, and what the order sorts by is held below.
            if !option.cutsByLimits && (!option.buries || notes(ankiLine) != notes(maeilLine)) {
                return "cards Anki only \(Set(ankiLine.map(\.id)).subtracting(maeilLine.map(\.id)).sorted()), Maeil only \(Set(maeilLine.map(\.id)).subtracting(ankiLine.map(\.id)).sorted())"
            }
        }
        for kind in 0...2 {
            let key: ((Int64) -> [Double])?
            switch kind {
            case 0: key = newKey(option, fact)
            case 1: key = { [fact($0, "queue"), fact($0, "due")] }
            default: key = reviewKey(option.reviews, fsrs: fsrs, fact)
            }
            guard let key else { continue }
            let ankiKeys = ankiLine.filter { $0.kind == kind }.map { key($0.id) }, maeilKeys = maeilLine.filter { $0.kind == kind }.map { key($0.id) }
            if ankiKeys != maeilKeys {
                return "kind \(kind) sorted by \(ankiKeys.prefix(12)) in Anki, \(maeilKeys.prefix(12)) in Maeil"
            }
        }
        return nil
    }

    /// What Anki sorts reviews by in `order`, from the card's own columns; nil where it is random
    /// or Anki's retrievability, which only the set and the kinds check.
    static func reviewKey(_ order: StudyOrder.ReviewOrder, fsrs: Bool, _ fact: @escaping (Int64, String) -> Double) -> ((Int64) -> [Double])? {
        switch order {
        case .dueDate: { [fact($0, "due")] }
        case .dueDateThenDeck: { [fact($0, "due"), fact($0, "deck")] }
        case .deckThenDueDate: { [fact($0, "deck"), fact($0, "due")] }
        case .ascendingIntervals: { [fact($0, "ivl")] }
        case .descendingIntervals: { [-fact($0, "ivl")] }
        case .ascendingEase: fsrs ? { [-fact($0, "difficulty")] } : { [fact($0, "factor")] }
        case .descendingEase: fsrs ? { [fact($0, "difficulty")] } : { [-fact($0, "factor")] }
        case .added: { [fact($0, "nid"), fact($0, "ord")] }
        case .reverseAdded: { [-fact($0, "nid"), fact($0, "ord")] }
        case .ascendingRetrievability, .descendingRetrievability, .relativeOverdueness, .random: nil
        }
    }

    /// What Anki sorts new cards by under `option`'s gather and sort, where neither is random.
    static func newKey(_ option: Options, _ fact: @escaping (Int64, String) -> Double) -> ((Int64) -> [Double])? {
        let gathered: ((Int64) -> [Double])?
        switch option.gather {
        case .deck: gathered = { [fact($0, "deck"), fact($0, "due"), fact($0, "ord")] }
        case .ascendingPosition: gathered = { [fact($0, "due"), fact($0, "ord")] }
        case .descendingPosition: gathered = { [-fact($0, "due"), fact($0, "ord")] }
        case .deckThenRandomNotes: gathered = { [fact($0, "deck")] }
        case .randomNotes, .randomCards: gathered = nil
        }
        switch option.sort {
        case .gather: return gathered
        case .templateThenGather: return { id in [fact(id, "ord")] + (gathered?(id) ?? []) }
        case .templateThenRandom: return { [fact($0, "ord")] }
        case .randomNoteThenTemplate, .randomCard: return nil
        }
    }
}
