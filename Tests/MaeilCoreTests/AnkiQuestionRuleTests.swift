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

    /// Anki's "Basic (optional reversed card)": its second card asks the back only, when "Add
    /// Reverse" has text; the switch itself is never shown.
    @Test func aFieldNamedOnlyByASectionIsNotShown() {
        let type = AnkiNoteType(id: 1, name: "Basic (optional reversed card)", isCloze: false, fields: ["Front", "Back", "Add Reverse"], templates: [
            .init(name: "Card 1", question: "{{Front}}", answer: "{{FrontSide}}<hr id=answer>{{Back}}"),
            .init(name: "Card 2", question: "{{#Add Reverse}}{{Back}}{{/Add Reverse}}", answer: "{{FrontSide}}<hr id=answer>{{Front}}"),
        ], modified: 0, legacyJSON: "{}")
        let reverse = type.maeilTemplates[1]
        #expect(reverse.front == ["Back"] && reverse.back == ["Front"])
        let fields = [NoteField(name: "Front", value: "사과"), NoteField(name: "Back", value: "apple"), NoteField(name: "Add Reverse", value: "")]
        #expect(reverse.ordinals(for: fields, noteType: type.name).isEmpty)
        #expect(reverse.ordinals(for: fields.dropLast() + [NoteField(name: "Add Reverse", value: "y")], noteType: type.name) == [0])
    }

    /// A note's question shows what its sections let through for that note.
    @Test func aQuestionShowsWhatItsSectionsLetThrough() {
        let template = CardTemplate(name: "Card 1", front: ["A", "C", "D"], back: ["E"], noteType: "T",
                                    ankiQuestionTags: "{{A}}{{#B}}{{C}}{{/B}}{{^Tags}}{{D}}{{/Tags}}")
        func shown(_ b: String, tags: Bool) -> [String] {
            template.shown(for: [NoteField(name: "A", value: "a"), NoteField(name: "B", value: b), NoteField(name: "C", value: "c"),
                                 NoteField(name: "D", value: "d")], hasTags: tags).front
        }
        #expect(shown("", tags: false) == ["A", "D"])
        #expect(shown("b", tags: true) == ["A", "C"])
        #expect(CardTemplate(name: "own", front: ["A"], back: []).shown(for: [], hasTags: false).front == ["A"])
    }

    /// A note's answer shows what its answer's sections let through, and a field its question
    /// held back for this note when the answer shows it.
    @Test func anAnswerShowsWhatItsSectionsLetThrough() {
        let template = Self.hinted(cloze: false, fields: ["Word", "Meaning"], question: "{{Word}}{{#Hint on}}{{Hint}}{{/Hint on}}",
                                   answer: "{{FrontSide}}<hr id=answer>{{Meaning}}{{^Hint on}}<br>{{Hint}}{{/Hint on}}")
        func shown(_ switchValue: String) -> (front: [String], back: [String]) {
            let fields = [NoteField(name: "Word", value: "나무"), NoteField(name: "Meaning", value: "tree"),
                          NoteField(name: "Hint on", value: switchValue), NoteField(name: "Hint", value: "namu")]
            let shown = template.shown(for: fields, hasTags: false)
            return (shown.front, shown.back)
        }
        // The hint on the question: the answer holds it back and adds nothing.
        #expect(shown("y") == (["Word", "Hint"], ["Meaning"]))
        // No hint on the question: the answer shows it after the meaning.
        #expect(shown("") == (["Word"], ["Meaning", "Hint"]))
        // An answer naming no field adds none, as in Anki; a template kept without its answer's
        // tags shows the fields its question leaves out.
        let fields = [NoteField(name: "A", value: "a"), NoteField(name: "B", value: "b")]
        var bare = CardTemplate(name: "T", front: ["A"], back: ["B"], noteType: "T", ankiQuestionTags: "{{A}}", ankiAnswerTags: "{{FrontSide}}")
        #expect(bare.shown(for: fields, hasTags: false).back == [])
        bare.ankiAnswerTags = nil
        #expect(bare.shown(for: fields, hasTags: false).back == ["B"])
        // A question showing nothing for the note (its only card): nothing of the note, as Anki's blank-front message.
        let blank = template.shown(for: [NoteField(name: "Word", value: ""), NoteField(name: "Meaning", value: "tree")], hasTags: false)
        #expect(blank.front.isEmpty && blank.back.isEmpty)
    }

    /// A cloze type's other fields follow its sections too; its deletions are its own.
    @Test func aClozesOtherFieldsFollowItsSections() {
        let template = Self.hinted(cloze: true, fields: ["Text", "Extra"], question: "{{cloze:Text}}{{#Hint on}}<br>{{Hint}}{{/Hint on}}",
                                   answer: "{{cloze:Text}}<br>{{^Hint on}}{{Hint}}{{/Hint on}}{{Extra}}")
        #expect(template.blanks == "Text" && template.front == ["Hint"] && template.back == ["Extra"])
        func shown(_ switchValue: String) -> (front: [String], back: [String]) {
            let shown = template.shown(for: [NoteField(name: "Text", value: "{{c1::나무}}"), NoteField(name: "Hint on", value: switchValue),
                                             NoteField(name: "Hint", value: "namu"), NoteField(name: "Extra", value: "tree")], hasTags: false)
            return (shown.front, shown.back)
        }
        #expect(shown("y") == (["Hint"], ["Extra"]))
        #expect(shown("") == ([], ["Hint", "Extra"]))
    }

    /// A side's fields come in the order it shows them for the note, and a cloze's deletions
    /// where it names them: a field held back by a section until later in the question shows
    /// there.
    @Test func aQuestionShowsItsFieldsInItsOwnOrder() {
        let fields = [NoteField(name: "Text", value: "{{c1::나무}}"), NoteField(name: "Hint on", value: "y"),
                      NoteField(name: "Hint", value: "namu"), NoteField(name: "Extra", value: "tree")]
        let cloze = Self.hinted(cloze: true, fields: ["Text", "Extra"], question: "{{#Hint on}}{{Hint}}<br>{{/Hint on}}{{cloze:Text}}",
                                answer: "{{Extra}}<br>{{cloze:Text}}")
        #expect(cloze.shown(for: fields, hasTags: false).deletionsAt == 1 && cloze.shown(for: fields, hasTags: false).answerDeletionsAt == 1)
        let shown = Self.hinted(cloze: true, fields: ["Text", "Extra"], question: "{{Extra}}<br>{{cloze:Text}}{{#Hint on}}<br>{{Hint}}{{/Hint on}}",
                                answer: "{{cloze:Text}}").shown(for: fields, hasTags: false)
        #expect(shown.front == ["Extra", "Hint"] && shown.deletionsAt == 1 && shown.answerDeletionsAt == 0)
        #expect(cloze.shown(for: fields.map { $0.name == "Hint" ? NoteField(name: "Hint", value: "") : $0 }, hasTags: false).deletionsAt == 1,
                "an empty field keeps its place")
        // Maeil's own cloze templates show the deletions under every other field.
        #expect(CardTemplate(name: "own", front: ["Extra"], back: [], blanks: "Text").shown(for: fields, hasTags: false).deletionsAt == nil)
        let standard = Self.hinted(cloze: false, fields: ["Word"], question: "{{^Hint on}}{{Hint}}{{/Hint on}}{{Word}}{{Hint}}", answer: "")
        #expect(standard.shown(for: [NoteField(name: "Word", value: "나무")] + fields.dropFirst(), hasTags: false).front == ["Word", "Hint"])
    }

    /// The template of a note type with `fields` and a hint its "Hint on" field switches, one
    /// card (a cloze's, when `cloze`).
    static func hinted(cloze: Bool, fields: [String], question: String, answer: String) -> CardTemplate {
        AnkiNoteType(id: cloze ? 2 : 1, name: cloze ? "Cloze hinted" : "Hinted", isCloze: cloze, fields: fields + ["Hint on", "Hint"],
                     templates: [.init(name: cloze ? "Cloze" : "Card 1", question: question, answer: answer)], modified: 0,
                     legacyJSON: "{}").maeilTemplates[0]
    }
}
