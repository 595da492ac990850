import Foundation
import PropertyBased
import Testing
import MaeilTestSupport
@testable import MaeilStore

/// Anki's search words as Maeil parses them (the meaning of each word is held against Anki's
/// own search in SearchAgainstAnkiTests): and binds tighter than or, `-` negates, quotes and
/// escapes keep words whole, and a bad word says what is wrong.
@Suite("Search words")
struct SearchTests {
    @Test func wordsAndOperators() throws {
        #expect(try SearchNode.parse("") == .all([]))
        #expect(try SearchNode.parse("a") == .term(.text("a")))
        #expect(try SearchNode.parse("a b or c") == .any([.all([.term(.text("a")), .term(.text("b"))]), .term(.text("c"))]))
        #expect(try SearchNode.parse("a and (b OR c)") == .all([.term(.text("a")), .any([.term(.text("b")), .term(.text("c"))])]))
        #expect(try SearchNode.parse("-a -(b c)") == .all([.not(.term(.text("a"))), .not(.all([.term(.text("b")), .term(.text("c"))]))]))
        #expect(try SearchNode.parse("\"a b\" \"or\"") == .all([.term(.text("a b")), .term(.text("or"))]))
        #expect(try SearchNode.parse("\"deck:Korean::Food Extra\"") == .term(.deck("Korean::Food Extra")))
        #expect(try SearchNode.parse("deck:\"a b\"") == .term(.deck("a b")))
        #expect(try SearchNode.parse("a-b") == .term(.text("a-b")))
        #expect(try SearchNode.parse("\\-a") == .term(.text("-a")))
        #expect(try SearchNode.parse("a\\:b") == .term(.text("a\\:b")))
    }

    @Test func qualifiers() throws {
        #expect(try SearchNode.parse("TAG:food") == .term(.tag("food")))
        #expect(try SearchNode.parse("is:buried-sibling") == .term(.state(.buriedSibling)))
        #expect(try SearchNode.parse("flag:0") == .term(.flag(0)))
        #expect(try SearchNode.parse("prop:ivl>=30") == .term(.property(.ivl, .greaterOrEqual, 30)))
        #expect(try SearchNode.parse("prop:ease!=2.5") == .term(.property(.ease, .notEqual, 2.5)))
        #expect(try SearchNode.parse("prop:due=-1") == .term(.property(.due, .equal, -1)))
        #expect(try SearchNode.parse("rated:7:1") == .term(.rated(days: 7, rating: 1)))
        #expect(try SearchNode.parse("added:3") == .term(.added(days: 3)))
        #expect(try SearchNode.parse("nid:1,2") == .term(.noteIDs([1, 2])))
        #expect(try SearchNode.parse("Front:개*") == .term(.field(name: "Front", value: "개*")))
        #expect(try SearchNode.parse(":a") == .term(.text(":a")))
    }

    @Test func badWordsSayWhatIsWrong() {
        for (query, message) in [("is:funny", "is:funny is not a card state"), ("flag:9", "a flag is 0 (none) to 7"),
                                 ("prop:size>3", "the properties are ivl, due"), ("prop:ivl~3", "compare with"),
                                 ("rated:0", "say how many days"), ("rated:1:5", "an answer is 1 to 4"),
                                 ("(a", "without its ')'"), ("a)", "without its '('"), ("\"a", "closing"), ("a or", "nothing on one side"),
                                 ("re:x", "does not search by re:")] {
            #expect(throws: SearchError.self, "\(query)") { try SearchNode.parse(query) }
            #expect((try? SearchNode.parse(query)) == nil)
            do { _ = try SearchNode.parse(query) } catch { #expect("\(error)".contains(message), "\(query): \(error)") }
        }
    }

    @Test func patterns() throws {
        #expect(SearchPattern.like("a*b_c%d\\*e\\_f") == "a%b_c\\%d*e\\_f")
        #expect(SearchPattern.nameMatcher("korean::*")("Korean::Food"))
        #expect(!SearchPattern.nameMatcher("korean")("Korean::Food"))
        #expect(SearchPattern.nameMatcher("k_rean")("Korean"))
        #expect(try SearchTermParser.term("tag:a") == .tag("a"))
        let tags = SearchSQL.tagMatcher("food")
        #expect(tags([" Food::spicy day1 "]) && tags([" food "]) && !tags([" seafood "]) && !tags([" food_court "]))
    }

    /// Boolean laws on a real collection: `-X` finds the rest, `X or Y` the union, `X Y` the
    /// intersection, `(X)` the same as `X`, whatever the words.
    @Test func searchesFollowTheLawsOfSets() async throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, name: "Korean::Food", count: 30)
        _ = try Fixture.wordDeck(collection, name: "Korean", count: 10)
        let notes = try collection.notes(deckID: deck.id)
        for (index, note) in notes.enumerated() where index % 3 == 0 { try collection.setTags(noteID: note.id, add: ["spicy", "food::hot"]) }
        let words = ["단어1", "word", "deck:Korean", "deck:korean::*", "tag:spicy", "tag:food", "is:new", "is:due", "-tag:none", "word_2", "*3", "meaning:word*",
                     "word:단어2*", "prop:ivl=0", "note:*", "flag:0", "is:suspended"]
        let all = Set(try collection.findCards("", now: Fixture.noon, timeZone: Fixture.utc).map(\.id))
        #expect(all.count == 80)
        func find(_ query: String) throws -> Set<Int64> { Set(try collection.findCards(query, now: Fixture.noon, timeZone: Fixture.utc).map(\.id)) }
        await propertyCheck(count: 150, input: Gen.int(in: 0...(words.count - 1)), Gen.int(in: 0...(words.count - 1))) { a, b in
            let x = words[a], y = words[b]
            let (foundX, foundY) = (try find(x), try find(y))
            #expect(try find("-\(x)") == all.subtracting(foundX), "-\(x)")
            #expect(try find("\(x) or \(y)") == foundX.union(foundY), "\(x) or \(y)")
            #expect(try find("\(x) \(y)") == foundX.intersection(foundY), "\(x) \(y)")
            #expect(try find("(\(x))") == foundX, "(\(x))")
        }
        #expect(try find("deck:Korean").count == 80 && find("deck:Korean::Food").count == 60 && find("tag:food").count == 20)
    }
}
