/// What a note holds, which decides how its cards are shown.
package enum NoteKind: String, Sendable, Codable, CaseIterable {
    /// A Hangul letter with its name, sound and mnemonic.
    case jamo
    /// A hiragana or katakana syllable with its romanization.
    case kana
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
package struct NoteField: Hashable, Sendable, Codable {
    /// The largest field a note may hold, in UTF-8 bytes: far beyond any text a card shows
    /// (pictures and sounds are files of their own), and small enough that a hostile file
    /// cannot make a note that takes gigabytes to read, show or export.
    package static let maximumBytes = 4 << 20

    package var name: String
    package var value: String
    /// A BCP 47 language such as "ko", "ja" or "en"; nil when unknown.
    package var language: String?

    package init(name: String, value: String, language: String? = nil) {
        self.name = name
        self.value = value
        self.language = language
    }
}

extension Array where Element == NoteField {
    package subscript(field name: String) -> NoteField? {
        first { $0.name == name }
    }

    package func value(_ name: String) -> String? {
        // By index: `first(where:)` copies every field it looks at, which showed in large imports.
        for index in indices where self[index].name == name { return self[index].value }
        return nil
    }
}
