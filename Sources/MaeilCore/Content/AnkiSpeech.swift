import Foundation

/// Anki's text-to-speech tags, `{{tts ko_KR:Front}}` (options such as `voices=` and filters such
/// as `cloze:` may come between): which fields Anki speaks, and in what language. A deck from
/// Anki carries no language on its fields otherwise, so Maeil's speech reads it from these.
extension AnkiNoteType {
    /// Each spoken field, with the language Maeil's speech takes ("ko" for Anki's "ko_KR").
    package var spokenLanguages: [String: String] {
        var languages: [String: String] = [:]
        for template in templates {
            for tag in Self.speechTags(in: template.question + template.answer) where fields.contains(tag.field) && languages[tag.field] == nil {
                languages[tag.field] = tag.language
            }
        }
        return languages
    }

    /// The field the first card's question speaks, which Anki plays as the card appears.
    package var spokenOnFront: String? {
        templates.first.flatMap { Self.speechTags(in: $0.question).first { fields.contains($0.field) }?.field }
    }

    static func speechTags(in format: String) -> [(language: String, field: String)] {
        var tags: [(String, String)] = []
        var rest = Substring(format)
        while let open = rest.range(of: "{{tts "), let close = rest[open.upperBound...].range(of: "}}") {
            let body = rest[open.upperBound..<close.lowerBound]
            rest = rest[close.upperBound...]
            // "ko_KR voices=Apple_Yuna speed=1.1:cloze:Text": the language first, the field last.
            guard let locale = body.split(whereSeparator: { $0 == " " || $0 == ":" }).first,
                  let field = body.split(separator: ":").last.map({ $0.trimmingCharacters(in: .whitespaces) }), !field.isEmpty else { continue }
            let language = locale.split(separator: "_").first.map { $0.lowercased() } ?? ""
            if !language.isEmpty { tags.append((language, field)) }
        }
        return tags
    }
}
