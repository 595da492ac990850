import MaeilCore

/// Anki's stock note types, as Maeil kinds and templates. Anything else imports as a basic
/// note that asks its first field and answers with the rest.
enum AnkiNoteTypes {
    struct Mapping {
        var kind: NoteKind
        var fields: [String]
        var templates: [CardTemplate]
    }

    static func mapping(for name: String, fields: [String]) -> Mapping {
        let lowered = name.lowercased()
        func field(_ index: Int, _ fallback: String) -> String { index < fields.count ? fields[index] : fallback }
        if lowered.hasPrefix("cloze") {
            let text = field(0, "Text")
            return Mapping(kind: .cloze, fields: fields.isEmpty ? ["Text", "Back Extra"] : fields, templates: [
                CardTemplate(name: "cloze", front: [], back: Array(fields.dropFirst().prefix(1)), blanks: text, noteType: name),
            ])
        }
        let front = field(0, "Front"), back = field(1, "Back")
        let names = fields.isEmpty ? ["Front", "Back"] : fields
        let card1 = CardTemplate(name: "card 1", front: [front], back: Array(names.dropFirst()), noteType: name)
        if lowered.contains("reversed") {
            return Mapping(kind: .basic, fields: names, templates: [
                card1, CardTemplate(name: "card 2", front: [back], back: [front], noteType: name),
            ])
        }
        if lowered.contains("type in the answer") {
            return Mapping(kind: .basic, fields: names, templates: [
                CardTemplate(name: "card 1", front: [front], back: [back], typed: back, noteType: name),
            ])
        }
        return Mapping(kind: .basic, fields: names, templates: [card1])
    }

    /// Field names Anki gives its stock note types.
    static func defaultFields(for name: String) -> [String] {
        let lowered = name.lowercased()
        if lowered.hasPrefix("cloze") { return ["Text", "Back Extra"] }
        if lowered.contains("optional reversed") { return ["Front", "Back", "Add Reverse"] }
        return ["Front", "Back"]
    }
}
