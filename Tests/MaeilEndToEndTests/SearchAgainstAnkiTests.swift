import Foundation
import Testing
import MaeilTestSupport

/// Issue 25, point 7: Anki's search words find in Maeil the cards Anki's own search finds in
/// the same collection. Seeded collections (scripts/anki/seeded.py) in three time zones, each
/// imported from its .colpkg; Anki's library searches the collection, `maeil find --cards
/// --json` the import, at two moments under libfaketime: minutes after the last answers and
/// burials, and two days later (Anki's deck list unburies first, as opening Anki does).
@Suite("Search against Anki's own search", .serialized)
struct SearchAgainstAnkiTests {
    static let zones = ["Asia/Seoul", "Europe/London", "America/New_York"]
    static let seedsPerZone = max(1, (Int(ProcessInfo.processInfo.environment["MAEIL_ANKI_SEEDS"] ?? "") ?? 6) / zones.count)
    let folder = Fixture.temporaryDirectory()
    var anki: SeededAnki { SeededAnki(folder: folder) }

    /// Every kind of word the issue names, with wildcards, negation, `or` and groups, over
    /// what seeded.py puts in a collection.
    static let queries = [
        "물", "meaning", "mean*", "meaning_1", "\"meaning 1\"", "-\"meaning 1\"", "late", "hint", "*", "MEANING",
        "deck:Korean", "deck:Korean::Food", "deck:korean::phrases", "deck:Korean -deck:Korean::*", "deck:*Food", "deck:Kor*",
        "deck:Korean::Food or deck:Korean::Phrases", "tag:food", "tag:FOOD", "tag:none", "tag:f*", "tag:marked", "-tag:hard",
        "tag:food or tag:nature", "tag:*a*", "is:due", "is:new", "is:learn", "is:review", "is:suspended", "is:buried",
        "is:buried-manually", "is:buried-sibling", "is:due is:review", "is:due is:learn", "-is:new -is:suspended",
        "-(is:new or is:suspended)", "flag:0", "-flag:0", "flag:1 or flag:2 or flag:3", "flag:4 or flag:5", "flag:6 or flag:7", "prop:ivl>30", "prop:ivl>=5", "prop:ivl<3",
        "prop:ivl=0", "prop:reps>5", "prop:lapses>0", "prop:lapses=0 is:review", "prop:ease>2.5", "prop:ease<2.5", "prop:ease=2.5",
        "prop:ease!=2.5", "prop:due=0", "prop:due<=1", "prop:due>3", "prop:due<0", "prop:due>=-2", "rated:1", "rated:3", "rated:7:1",
        "rated:30:3", "rated:30:4", "added:1", "added:7", "added:100", "front:물", "front:_", "back:meaning*", "BACK:meaning_1*",
        "text:*hint*", "b*:*1*", "note:Basic", "note:Cloze", "note:basic*", "\"note:Basic (and reversed card)\"",
        "(tag:food or tag:nature) is:review", "is:review and tag:basics", "물 or 불 or 집", "\"tag:hard\" prop:reps>2",
        "deck:Korean::Food (is:due or is:new)", "-deck:Korean::Food rated:5", "is:review -rated:3",
    ]

    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(40)))
    func findsWhatAnkiFinds() throws {
        let queryFile = folder.appendingPathComponent("queries.json")
        try JSONSerialization.data(withJSONObject: Self.queries).write(to: queryFile)
        var compared = 0, found = 0, differences: [String] = [], neverFound = Set(Self.queries)
        for seed in try anki.imported(zones: Self.zones, first: 700, perZone: Self.seedsPerZone) {
            let (zone, last, collection) = (seed.zone, seed.last, seed.collection)
            for moment in [last + 600, last + 2 * 86_400 + 7 * 3600] {
                let ankiFound = try anki.python(["search", seed.folder.appendingPathComponent("collection.anki2").path, String(moment), queryFile.path], zone: zone)
                // Every query at one prompt, each as `maeil find` takes it.
                let output = try anki.prompt(Self.queries.map { ["find", "--cards", "--json", "--limit", "100000", "--", $0] }, collection, zone, at: moment)
                let results = try SeededAnki.jsonArrays(output)
                try #require(results.count == Self.queries.count, "\(results.count) results of \(Self.queries.count) queries: \(output.suffix(2000))")
                for (query, rows) in zip(Self.queries, results) {
                    let expected = try #require(ankiFound[query] as? [Int64], "Anki found nothing for \(query)")
                    let ids = rows.map { ($0["anki_id"] as? Int64) ?? -1 }.sorted()
                    if ids != expected {
                        differences.append("seed \(seed.name) (\(zone)), \(moment == last + 600 ? "same day" : "two days later"), \(query): "
                            + "Anki only \(Set(expected).subtracting(ids).sorted().prefix(5)), Maeil only \(Set(ids).subtracting(expected).sorted().prefix(5))")
                    }
                    compared += 1
                    found += expected.count
                    if !expected.isEmpty { neverFound.remove(query) }
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.count) of \(compared) searches differ:\n\(differences.prefix(40).joined(separator: "\n"))")
        // A query that finds nothing anywhere would pass whatever Maeil did.
        #expect(neverFound.isEmpty || Self.seedsPerZone < 2, "Anki found no card for \(neverFound.sorted()) in any seed")
        print("search against Anki: \(compared) searches (\(Self.queries.count) queries), \(found) cards found by Anki, \(differences.count) differ")
    }
}
