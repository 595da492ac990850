import Foundation
import Testing
@testable import MaeilCore

/// Anki's rule for which cards a note of a standard note type has, in the cases Anki 26.9.3's
/// library was asked directly (`CardTemplatesAgainstAnkiTests` holds it against random ones).
@Suite("Which cards Anki's templates make")
struct AnkiQuestionRuleTests {
    @Test func anEmptyFieldIsWhiteSpaceAndLineBreaksAlone() {
        for empty in ["", " ", "\t\n", "<br>", "<br/>", "<BR />", "<div> </div>", "</div>"] {
            #expect(AnkiQuestionRule.isEmpty(empty), "\(empty.debugDescription) is empty")
        }
        for text in ["x", "&nbsp;", "\u{A0}", "\u{200B}", "\u{3000}", "<b></b>", "<img src=a.png>", "[sound:a.mp3]", "x<br>", "<!-- c -->"] {
            #expect(!AnkiQuestionRule.isEmpty(text), "\(text.debugDescription) is text")
        }
    }

    @Test func sectionsAndSpecialNamesDecide() {
        let fields = ["Front": "a", "Back": "", "Extra": "<br>"]
        func makes(_ question: String, tags: Bool = false) -> Bool {
            AnkiQuestionRule.makesCard(question: question, field: { fields[$0] }, hasTags: tags)
        }
        #expect(makes("{{Back}}{{Front}}"))
        #expect(!makes("{{Back}}<div>{{Extra}}</div>"))
        #expect(!makes("{{^Front}}{{Front}}{{/Front}}"))
        #expect(makes("{{^Back}}{{hint:Front}}{{/Back}}"))
        #expect(!makes("{{#Back}}{{Front}}{{/Back}}"))
        #expect(makes("{{#Front}}{{#Extra}}{{Back}}{{/Extra}}{{type:Front}}{{/Front}}"))
        #expect(makes("{{Card}}") && makes("{{Deck}}") && makes("{{CardFlag}}") && !makes("{{FrontSide}}"))
        #expect(!makes("{{Tags}}") && makes("{{Tags}}", tags: true) && makes("{{^Tags}}{{Front}}{{/Tags}}"))
        #expect(!makes("{{^Card}}{{Front}}{{/Card}}") && makes("{{#Deck}}{{Front}}{{/Deck}}"))
        #expect(AnkiQuestionRule.tags(of: "<b>Q:</b> {{#Front}}{{Front}}{{/Front}}<br>") == "{{#Front}}{{Front}}{{/Front}}")
    }
}
