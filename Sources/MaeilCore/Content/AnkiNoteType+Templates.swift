import Foundation

/// How an Anki note type's templates become a deck's templates: one rule for an import and for
/// a note added at Maeil's prompt, so that a card's template name maps back to the same Anki
/// template on the way out.
extension AnkiNoteType {
    /// Maeil templates from Anki's: the fields a question shows, the ones its answer adds.
    package var maeilTemplates: [CardTemplate] {
        if isCloze {
            let question = templates.first?.question ?? ""
            let blanks = Self.references(in: question).first { $0.prefix == "cloze" }?.field ?? fields.first ?? "Text"
            let answer = templates.first?.answer ?? ""
            // Other fields the question shows (image occlusion's header and picture) go before the
            // blanks; a field named only by a section is not shown, as in a standard type.
            let front = Self.unique(Self.references(in: question, sections: false).map(\.field).filter { $0 != blanks && fields.contains($0) })
            let back = Self.references(in: answer, sections: false).map(\.field).filter { $0 != blanks && fields.contains($0) && !front.contains($0) }
            return [CardTemplate(name: "cloze", front: front, back: Self.unique(back), blanks: blanks, noteType: name,
                                 ankiQuestionTags: AnkiQuestionRule.tags(of: question), ankiAnswerTags: AnkiQuestionRule.tags(of: answer))]
        }
        return templates.enumerated().map { index, template in
            // A field named only by a section (`{{#Add Reverse}}…{{/Add Reverse}}`) decides what
            // shows and is not shown itself.
            let asked = Self.references(in: template.question, sections: false).filter { fields.contains($0.field) && $0.prefix != "type" }
            let front = Self.unique(asked.map(\.field))
            let typed = Self.references(in: template.question).first { $0.prefix == "type" }?.field
            var back = Self.unique(Self.references(in: template.answer, sections: false).map(\.field).filter { fields.contains($0) && !front.contains($0) })
            if back.isEmpty { back = fields.filter { !front.contains($0) } }
            return CardTemplate(name: template.name.isEmpty ? "card \(index + 1)" : template.name,
                                front: front.isEmpty ? Array(fields.prefix(1)) : front, back: back, typed: typed, noteType: name,
                                ankiQuestionTags: AnkiQuestionRule.tags(of: template.question),
                                ankiAnswerTags: AnkiQuestionRule.tags(of: template.answer))
        }
    }

    /// Whether Maeil makes the same of `other` as of this type: the same name, kind, fields and
    /// card names, the same templates in its decks (which fields each card asks and answers,
    /// hence which cards a note has) and the same speech. Two such differ only in what Maeil
    /// keeps for Anki (style, the HTML around the fields, sort field…): taking one for the
    /// other changes no deck, note or card here.
    package func makesTheSameHere(as other: AnkiNoteType) -> Bool {
        name == other.name && isCloze == other.isCloze && fields == other.fields && templates.map(\.name) == other.templates.map(\.name)
            && maeilTemplates == other.maeilTemplates && isImageOcclusion == other.isImageOcclusion
            && spokenLanguages == other.spokenLanguages && spokenOnFront == other.spokenOnFront
    }

    /// Anki's image occlusion type (its question draws masks on a canvas): its notes are made
    /// by drawing on a picture, never by typing fields.
    package var isImageOcclusion: Bool { isCloze && templates.contains { $0.question.contains("image-occlusion") } }

    /// {{Field}}, {{type:Field}}, {{cloze:Text}}, {{#Field}}… → (prefix, field). `sections`:
    /// whether the names sections open and close with count.
    package static func references(in format: String, sections: Bool = true) -> [(prefix: String?, field: String)] {
        var result: [(String?, String)] = []
        AnkiQuestionRule.forEachTag(in: format) { _, inside in
            var body = inside.trimmingCharacters(in: .whitespaces)
            if body.hasPrefix("#") || body.hasPrefix("/") || body.hasPrefix("^") {
                guard sections else { return true }
                body.removeFirst()
            }
            let parts = body.split(separator: ":").map(String.init)
            guard let field = parts.last, !["FrontSide", "Tags", "Deck", "Subdeck", "Card", "CardFlag", "Type"].contains(field) else { return true }
            result.append((parts.count > 1 ? parts[0].lowercased() : nil, field))
            return true
        }
        return result
    }

    static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}

extension CardTemplate {
    /// A note type's templates added to a deck's: a name another note type took there gets the
    /// type's name after it ("Card 1 (Basic)"), numbered on when that is taken too (one of
    /// Maeil's own templates may carry such a name). Returns the deck's templates with the new
    /// ones after them, and the name each of `templates` has in the deck.
    package static func adding(_ templates: [CardTemplate], ofType typeName: String, to deck: [CardTemplate])
        -> (deck: [CardTemplate], names: [String]) {
        var merged = deck
        var names: [String] = []
        for template in templates {
            var candidate = template
            if let existing = merged.first(where: { $0.name == template.name }), existing.noteType != typeName {
                candidate.name = "\(template.name) (\(typeName))"
                var number = 2
                while let taken = merged.first(where: { $0.name == candidate.name }), taken.noteType != typeName {
                    candidate.name = "\(template.name) (\(typeName) \(number))"
                    number += 1
                }
            }
            if !merged.contains(where: { $0.name == candidate.name }) { merged.append(candidate) }
            names.append(candidate.name)
        }
        return (merged, names)
    }
}
