/// What a note holds, which decides how its cards are shown.
public enum NoteKind: String, Sendable, Codable, CaseIterable {
    /// A Hangul letter with its name, sound and mnemonic.
    case jamo
    /// A Japanese word with its reading and meaning.
    case vocabulary
    /// A kanji with readings, meanings and example words.
    case kanji
    /// A topic word card (foods, places, expressions…).
    case word
    /// A verse to memorize: reference and text.
    case verse
    /// Front and back, as in Anki's Basic note type.
    case basic
    /// Text with {{c1::…}} deletions, as in Anki's Cloze note type.
    case cloze
}

/// One named field of a note, with the language its text is in (for speech and input).
public struct NoteField: Hashable, Sendable, Codable {
    public var name: String
    public var value: String
    /// A BCP 47 language such as "ko", "ja" or "en"; nil when unknown.
    public var language: String?

    public init(name: String, value: String, language: String? = nil) {
        self.name = name
        self.value = value
        self.language = language
    }
}

extension Array where Element == NoteField {
    public subscript(field name: String) -> NoteField? {
        first { $0.name == name }
    }

    public func value(_ name: String) -> String? {
        // By index: `first(where:)` copies every field it looks at, which showed in large imports.
        for index in indices where self[index].name == name { return self[index].value }
        return nil
    }
}

/// What one card of a note asks and what it answers.
public struct CardTemplate: Hashable, Sendable, Codable {
    public var name: String
    /// Fields shown on the front.
    public var front: [String]
    /// Fields revealed as the answer.
    public var back: [String]
    /// When set, the learner types this field's value and it is compared.
    public var typed: String?
    /// When set, this field is shown with words blanked out and the blanks are the answer.
    public var blanks: String?
    /// Fields shown on demand before the answer (a kanji's readings, example words).
    public var hints: [String]
    /// When set, only notes of this note type get cards from this template (a deck imported
    /// from Anki can mix "Basic" and "Basic (and reversed card)" notes).
    public var noteType: String?

    public init(name: String, front: [String], back: [String], typed: String? = nil, blanks: String? = nil, hints: [String] = [],
                noteType: String? = nil) {
        self.name = name
        self.front = front
        self.back = back
        self.typed = typed
        self.blanks = blanks
        self.hints = hints
        self.noteType = noteType
    }

    enum CodingKeys: String, CodingKey { case name, front, back, typed, blanks, hints, noteType = "note_type" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        front = try container.decodeIfPresent([String].self, forKey: .front) ?? []
        back = try container.decodeIfPresent([String].self, forKey: .back) ?? []
        typed = try container.decodeIfPresent(String.self, forKey: .typed)
        blanks = try container.decodeIfPresent(String.self, forKey: .blanks)
        hints = try container.decodeIfPresent([String].self, forKey: .hints) ?? []
        noteType = try container.decodeIfPresent(String.self, forKey: .noteType)
    }
}
