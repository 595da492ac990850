/// What one card of a note asks and what it answers.
package struct CardTemplate: Hashable, Sendable, Codable {
    package var name: String
    /// Fields shown on the front.
    package var front: [String]
    /// Fields revealed as the answer.
    package var back: [String]
    /// When set, the learner types this field's value and it is compared.
    package var typed: String?
    /// When set, this field is shown with words blanked out and the blanks are the answer.
    package var blanks: String?
    /// Fields shown on demand before the answer (a kanji's readings, example words).
    package var hints: [String]
    /// When set, only notes of this note type get cards from this template (a deck imported
    /// from Anki can mix "Basic" and "Basic (and reversed card)" notes).
    package var noteType: String?
    /// For a template of Anki's, its question's tags (`AnkiQuestionRule.tags`): which cards a
    /// note of a standard type has follows Anki's rule over them (a cloze's, its deletions), and
    /// what its question shows of a note its sections (`shown`). Nil for Maeil's own templates,
    /// and for Anki's kept before it was known (an import of their type gives it).
    package var ankiQuestionTags: String?
    /// Its answer's tags likewise: which fields a note's answer adds follows its sections
    /// (`shown`). Maeil keeps the question above the answer whether or not it names `{{FrontSide}}`.
    package var ankiAnswerTags: String?
    /// Where a cloze's question shows its deletions among `front`: that many of its fields come
    /// before them, as Anki's question orders them (`shown` finds it for a note). Nil: after all
    /// of them, as Maeil's own templates show them. Never stored.
    package var deletionsAt: Int?
    /// Where its answer shows them among `back` likewise. Nil: before all of them.
    package var answerDeletionsAt: Int?

    package init(name: String, front: [String], back: [String], typed: String? = nil, blanks: String? = nil, hints: [String] = [],
                noteType: String? = nil, ankiQuestionTags: String? = nil, ankiAnswerTags: String? = nil) {
        self.name = name
        self.front = front
        self.back = back
        self.typed = typed
        self.blanks = blanks
        self.hints = hints
        self.noteType = noteType
        self.ankiQuestionTags = ankiQuestionTags
        self.ankiAnswerTags = ankiAnswerTags
    }

    enum CodingKeys: String, CodingKey {
        case name, front, back, typed, blanks, hints, noteType = "note_type", ankiQuestionTags = "anki_question_tags", ankiAnswerTags = "anki_answer_tags"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        front = try container.decodeIfPresent([String].self, forKey: .front) ?? []
        back = try container.decodeIfPresent([String].self, forKey: .back) ?? []
        typed = try container.decodeIfPresent(String.self, forKey: .typed)
        blanks = try container.decodeIfPresent(String.self, forKey: .blanks)
        hints = try container.decodeIfPresent([String].self, forKey: .hints) ?? []
        noteType = try container.decodeIfPresent(String.self, forKey: .noteType)
        ankiQuestionTags = try container.decodeIfPresent(String.self, forKey: .ankiQuestionTags)
        ankiAnswerTags = try container.decodeIfPresent(String.self, forKey: .ankiAnswerTags)
    }
}

extension CardTemplate {
    /// Which cards of this template a note has: for Anki's templates, as Anki decides
    /// (`AnkiQuestionRule`); for Maeil's, none when a front field is empty; none when the
    /// template is for another note type; one per cloze number when the blanks field holds
    /// {{c1::…}} deletions; otherwise one (ordinal 0).
    package func ordinals(for fields: [NoteField], noteType: String? = nil) -> [Int] {
        var ordinals: [Int] = []
        forEachOrdinal(for: fields, noteType: noteType) { ordinals.append($0) }
        return ordinals
    }

    /// `ordinals(for:noteType:)` without the array, which was an allocation for every note of
    /// a large import. `hasCards`: the note has cards already (an edit), which for Anki's
    /// cloze types changes what a note without deletions gets; `hasTags`: it has a tag, which a
    /// question of Anki's showing `{{Tags}}` makes a card from.
    package func forEachOrdinal(for fields: [NoteField], noteType: String?, hasCards: Bool = false, hasTags: Bool = false,
                                _ body: (Int) throws -> Void) rethrows {
        if let required = self.noteType, required != noteType { return }
        // Anki makes a cloze note's cards from its deletions alone: the other fields its question
        // shows (image occlusion's header) may be empty. Maeil's own templates need their front.
        let clozeFromAnki = blanks != nil && self.noteType != nil
        if let question = ankiQuestionTags, blanks == nil {
            // Anki's rule: a field the question shows through its sections has text.
            guard AnkiQuestionRule.makesCard(question: question, field: { fields.value($0) }, hasTags: hasTags) else { return }
        } else {
            for name in front where !clozeFromAnki && !(fields.value(name)?.hasVisibleText ?? false) { return }
        }
        if let blanks {
            guard let text = fields.value(blanks), text.hasVisibleText else { return }
            let numbers = Cloze.numbers(in: text)
            if !numbers.isEmpty {
                for number in numbers { try body(number) }
                return
            }
            // Anki's cloze type without a deletion: its first card, and only for a note with no
            // card yet (an edit that takes every deletion out keeps the cards as they are).
            if clozeFromAnki {
                if !hasCards { try body(1) }
                return
            }
        }
        try body(0)
    }
}

extension CardTemplate {
    /// The template as it shows a note: for Anki's, only the fields the question's and the
    /// answer's sections let through for this note (`{{A}}{{#B}}{{C}}{{/B}}` with B empty shows A
    /// alone), none of it on a card whose question shows nothing. The answer shows, after the
    /// question, the fields it shows for this note and the question did not: one the question
    /// held back may be among them, and an answer naming no field shows none (where a template
    /// kept before its answer's tags shows the fields its question leaves out).
    /// A cloze's blanks are its own: its other fields follow the same sections, and its question
    /// always shows its deletion, where the question names it among them (`deletionsAt`; the
    /// answer's, `answerDeletionsAt`). Each side's fields come in the order it shows them.
    package func shown(for fields: [NoteField], hasTags: Bool) -> CardTemplate {
        var template = self
        func names(_ tags: String) -> [(name: String, empty: Bool)] {
            AnkiQuestionRule.shownNames(question: tags, field: { fields.value($0) }, hasTags: hasTags)
        }
        // Image occlusion's masks are drawn on its picture: what they hide reads after it,
        // wherever its templates name them.
        let placesDeletions = blanks.map { ImageOcclusion.masks(in: fields.value($0) ?? "") == nil } ?? false
        if let question = ankiQuestionTags {
            let asked = names(question)
            // A card whose question shows nothing for this note (its note's only card, which
            // Anki gives a note no template makes one for) shows Anki's blank-front message
            // on both sides there, none of the note.
            if blanks == nil, asked.allSatisfy(\.empty) {
                (template.front, template.back, template.typed) = ([], [], nil)
                return template
            }
            // In the order the question shows them, each where it first shows.
            let shown = AnkiNoteType.unique(asked.map(\.name))
            let asks = Set(front)
            template.front = shown.filter(asks.contains)
            template.deletionsAt = placesDeletions ? deletionsPlace(in: shown, keeping: asks) : nil
        }
        if let answer = ankiAnswerTags {
            let candidates = Set(fields.map(\.name)).subtracting(template.front + [blanks].compactMap { $0 })
            let shown = AnkiNoteType.unique(names(answer).map(\.name))
            template.back = shown.filter(candidates.contains)
            template.answerDeletionsAt = placesDeletions ? deletionsPlace(in: shown, keeping: candidates) : nil
        }
        return template
    }

    /// How many of the fields `kept` a side shows (`names`, in its order) come before a cloze's
    /// deletions: nil where it does not name them.
    private func deletionsPlace(in names: [String], keeping kept: Set<String>) -> Int? {
        guard let blanks, let deletions = names.firstIndex(of: blanks) else { return nil }
        return names[..<deletions].filter(kept.contains).count
    }
}
