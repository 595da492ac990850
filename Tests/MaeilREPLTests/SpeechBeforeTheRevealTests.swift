import Foundation
import MaeilCore
import MaeilSession
import MaeilStore
import Testing
@testable import MaeilREPL

/// Speech before the reveal says only what the front shows and never the answer; the rest is
/// said once the answer is on screen. The cards are the bundled decks' own shapes.
@Suite("Speech before the reveal")
struct SpeechBeforeTheRevealTests {
    static func card(speak: String?, fields: [NoteField], template: CardTemplate, kind: NoteKind = .word) -> CardView {
        var card = PresentedCard.sample(kind: kind, fields: fields, template: template)
        card.deck.speak = speak
        return CardView(card, style: .plain)
    }

    static let hangul = [
        NoteField(name: "jamo", value: "ㄱ", language: "ko"), NoteField(name: "position", value: "initial", language: "en"),
        NoteField(name: "name", value: "기역", language: "ko"), NoteField(name: "sound", value: "g as in go", language: "en"),
        NoteField(name: "example", value: "가방", language: "ko"), NoteField(name: "example_meaning", value: "bag", language: "en"),
    ]

    @Test func aRecallCardSaysNothingBeforeItsAnswer() {
        let view = Self.card(speak: "korean", fields: [
            NoteField(name: "korean", value: "김치", language: "ko"), NoteField(name: "english", value: "kimchi", language: "en"),
        ], template: CardTemplate(name: "recall", front: ["english"], back: ["korean"], typed: "korean"))
        #expect(view.spoken(answer: false) == nil)
        #expect(view.spoken(answer: true)?.text == "김치")
    }

    @Test func aJapaneseWordDoesNotSayTheReadingItsHintHolds() {
        let view = Self.card(speak: "kana", fields: [
            NoteField(name: "word", value: "猫", language: "ja"), NoteField(name: "kana", value: "ねこ", language: "ja"),
            NoteField(name: "meaning", value: "cat", language: "en"),
        ], template: CardTemplate(name: "recognize", front: ["word"], back: ["kana", "meaning"], hints: ["kana"]), kind: .vocabulary)
        #expect(view.spoken(answer: false) == nil)
        #expect(view.spoken(answer: true)?.text == "ねこ")
        // Written in kana, the word on the front is what it sounds like.
        let kanaOnly = Self.card(speak: "kana", fields: [NoteField(name: "word", value: "すし", language: "ja"), NoteField(name: "kana", value: "すし", language: "ja")],
                                 template: CardTemplate(name: "recognize", front: ["word"], back: ["kana"]), kind: .vocabulary)
        #expect(kanaOnly.spoken(answer: false)?.text == "すし")
    }

    @Test func aKanaCardDoesNotPronounceTheRomajiToBeTyped() {
        let view = Self.card(speak: "kana", fields: [
            NoteField(name: "kana", value: "あ", language: "ja"), NoteField(name: "romaji", value: "a"),
        ], template: CardTemplate(name: "recognize", front: ["kana"], back: ["romaji"], typed: "romaji"), kind: .kana)
        #expect(view.spoken(answer: false) == nil)
        #expect(view.spoken(answer: true)?.text == "あ")
    }

    @Test func hangulCardsKeepTheExampleWordForTheBack() {
        let recall = Self.card(speak: "example", fields: Self.hangul, template: CardTemplate(name: "recall", front: ["sound"], back: ["jamo", "name"]), kind: .jamo)
        #expect(recall.spoken(answer: false) == nil)
        #expect(recall.spoken(answer: true)?.text == "가방")
        let recognize = Self.card(speak: "example", fields: Self.hangul,
                                  template: CardTemplate(name: "recognize", front: ["jamo", "position"], back: ["name", "example"]), kind: .jamo)
        #expect(recognize.spoken(answer: false)?.text == "ㄱ")
        #expect(recognize.spoken(answer: true)?.text == "가방")
    }
}
