import Foundation

extension String {
    /// The text in Unicode Normalization Form C, as Maeil stores and compares all text (typed
    /// answers, imported fields), so decomposed Hangul from some input methods matches.
    ///
    /// Most text is already NFC, and Foundation's normalization costs about a microsecond a
    /// string, which is most of an import's time. Text made only of characters that never
    /// change under NFC (ASCII and Latin-1, Hangul syllables, kanji, kana without combining
    /// marks, CJK and fullwidth punctuation) is returned as it is.
    package var nfc: String {
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0..<0x300, 0x3000...0x3098, 0x309B...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF00...0xFFEF:
                continue
            default:
                return precomposedStringWithCanonicalMapping
            }
        }
        return self
    }
}
