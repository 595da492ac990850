import Foundation
import MaeilCore
import MaeilSession
import MaeilStore

/// How a card looks, by the kind of note: a jamo large and alone, a word with its reading
/// held back, a kanji with readings and examples on demand, a verse by reference or with
/// blanks. Every piece of card text is sanitized here, once.
package struct CardView {
    package let card: PresentedCard
    package let style: Style

    /// Field values by name, the first of each name: a template naming every field of a wide
    /// note looks each up once, not by a scan of all of them.
    private let values: [String: String]

    /// The card's template as it shows this note, question and answer (`CardTemplate.shown`).
    let template: CardTemplate

    package init(_ card: PresentedCard, style: Style) {
        self.card = card
        self.style = style
        values = Dictionary(card.note.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        template = card.template.shown(for: card.note.fields, hasTags: !card.note.tags.isEmpty)
    }

    var fields: [NoteField] { card.note.fields }

    /// A field as shown: formatted, sanitized.
    func value(_ name: String) -> String {
        FieldView.render(values[name] ?? "", html: card.note.html, style: style)
    }

    /// A field as text for speech and blanks: no formatting, readings left out.
    func text(_ name: String) -> String {
        TerminalText.sanitize(FieldText.answer(values[name] ?? "", html: card.note.html)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The sounds on one side of the card, in order: what `p` plays.
    package func sounds(answer: Bool) -> [String] {
        let names = template.front + (answer ? template.back : []) + [template.blanks].compactMap { $0 }
        return names.flatMap { FieldText.sounds(values[$0] ?? "", html: card.note.html) }
    }

    /// The pictures on the card, in order: what `o` opens.
    package var images: [String] {
        (template.front + template.back).flatMap { FieldText.images(values[$0] ?? "", html: card.note.html) }
    }

    func label(_ name: String) -> String {
        name.replacingOccurrences(of: "_", with: " ")
    }

    var blanks: Blanks? {
        template.blanks.map { Blanks(text: text($0), ordinal: card.card.ordinal) }
    }

    /// The question side.
    package var front: String {
        var lines: [String] = []
        if let blanks {
            // Anki's question may name a field after its deletions (a hint under the text).
            let before = template.front.prefix(template.deletionsAt ?? template.front.count)
            lines += before.map(value).filter { !$0.isEmpty }.map { style.bold($0) }
            lines.append(blanks.question)
            lines += template.front.dropFirst(before.count).map(value).filter { !$0.isEmpty }
            return lines.joined(separator: "\n")
        }
        let shown = template.front.map(value).filter { !$0.isEmpty }
        // Anki's note type asks nothing of this note (`CardTemplate.shown`): say so, as Anki does.
        if shown.isEmpty, template.typed == nil {
            return style.dim("The front of this card is blank: no field it asks has text for this note.")
        }
        let large = [.jamo, .kana, .kanji].contains(card.note.kind) && shown.count == 1 && TerminalWidth.of(shown[0]) <= 4
        if large {
            lines += Self.boxed(shown[0], style: style)
        } else {
            if let first = shown.first { lines.append(style.bold(first)) }
            lines += shown.dropFirst()
        }
        if template.typed != nil {
            lines.append(style.dim("(type the \(label(template.typed!)))"))
        }
        return lines.joined(separator: "\n")
    }

    /// What "h" shows before the answer: a word's reading, a kanji's readings and examples.
    package var hints: String? {
        let shown = template.hints.compactMap { name -> String? in
            let text = value(name)
            return text.isEmpty ? nil : "\(style.dim(label(name) + ":")) \(text)"
        }
        return shown.isEmpty ? nil : shown.joined(separator: "\n")
    }

    /// The answer side, under the front.
    package var back: String {
        let blanks = self.blanks
        func line(_ name: String) -> String? {
            let text = value(name)
            guard !text.isEmpty else { return nil }
            return template.back.count == 1 && blanks == nil ? style.bold(style.green(text)) : "\(style.dim(label(name) + ":")) \(text)"
        }
        // A cloze's deletions where its answer names them among the fields (first by default).
        let before = template.back.prefix(template.answerDeletionsAt ?? 0)
        var lines = before.compactMap(line)
        if let blanks { lines.append(style.green(blanks.answerText)) }
        lines += template.back.dropFirst(before.count).compactMap(line)
        return lines.joined(separator: "\n")
    }

    /// What speech says on one side of the card. Before the reveal only what the front shows:
    /// the deck's speech field when the front shows it, else the first front field not in
    /// English; nothing on a card that asks for a typed answer (what its front sounds like is
    /// what it asks for: a kana's romaji, a recall card's word); and Japanese with kanji only
    /// when its kana reading is on the front too (the reading is what a hint holds back).
    /// After the reveal, the deck's speech field wherever it is, or the first field not in
    /// English; Japanese with kanji from its kana reading, which a speech engine reads better.
    package func spoken(answer: Bool) -> (text: String, language: String?)? {
        if !answer, template.typed != nil { return nil }
        let shown = answer ? fields.map(\.name) : template.front
        let candidates = (card.deck.speak.map { shown.contains($0) ? [$0] : [] } ?? []) + shown
        for name in candidates {
            guard let field = fields[field: name], !field.value.isEmpty else { continue }
            guard card.deck.speak == name || (field.language != nil && field.language != "en") else { continue }
            let words = text(name)
            guard field.language == "ja", JapaneseText.hasKanji(words) else { return (words, field.language) }
            let readingShown = answer || ["kana", "reading", "yomi", "furigana"].contains { template.front.contains($0) }
            guard readingShown, let kana = kanaReading else { return nil }
            return (TerminalText.sanitize(kana), "ja")
        }
        return nil
    }

    /// The note's reading in kana, from a field named for it.
    var kanaReading: String? {
        for name in ["kana", "reading", "yomi", "furigana"] {
            let reading = text(name)
            if !reading.isEmpty, !JapaneseText.hasKanji(reading) { return reading }
        }
        return nil
    }

    /// A short letter or kanji, drawn large in a frame: terminals cannot change the font size,
    /// so give it room and weight instead.
    static func boxed(_ text: String, style: Style) -> [String] {
        let inner = max(TerminalWidth.of(text) + 8, 12)
        let left = (inner - TerminalWidth.of(text)) / 2
        let right = inner - TerminalWidth.of(text) - left
        let blank = "│" + String(repeating: " ", count: inner) + "│"
        return [
            "┌" + String(repeating: "─", count: inner) + "┐", blank,
            "│" + String(repeating: " ", count: left) + style.bold(text) + String(repeating: " ", count: right) + "│",
            blank, "└" + String(repeating: "─", count: inner) + "┘",
        ]
    }

    /// A typed answer against the expected one. Extra letters are marked [like this] and
    /// missing ones (like this); with colour, red and yellow as well.
    package static func diff(_ judgement: AnswerJudgement, style: Style) -> String {
        let typed = TerminalText.sanitize(judgement.typed)
        if judgement.correct { return style.green("✓ " + typed) }
        let pieces = judgement.diff.map { piece -> String in
            switch piece {
            case .same(let text): TerminalText.sanitize(text)
            case .extra(let text): style.red("[" + TerminalText.sanitize(text) + "]")
            case .missing(let text): style.yellow("(" + TerminalText.sanitize(text) + ")")
            }
        }
        return style.red("✗ ") + pieces.joined() + "\n" + style.dim("expected: ") + TerminalText.sanitize(judgement.expected)
    }
}

enum JapaneseText {
    /// CJK ideographs (kanji), with the extension A block.
    static func hasKanji(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) || (0x3400...0x4DBF).contains($0.value) }
    }
}
