import MaeilCore

/// A field as the terminal shows it: Anki's bold, italics and underlining as the terminal's own
/// (plain under NO_COLOR), a reading after its word, sounds and pictures by name with the key
/// that plays or opens them. Every piece of text is sanitized.
package enum FieldView {
    package static func render(_ value: String, html: Bool, style: Style) -> String {
        FieldText.pieces(value, html: html).map { piece in
            switch piece {
            case .text(let text, let emphasis):
                var shown = TerminalText.sanitize(text)
                if emphasis.contains(.bold) { shown = style.bold(shown) }
                if emphasis.contains(.italic) { shown = style.italic(shown) }
                if emphasis.contains(.underline) { shown = style.underline(shown) }
                return shown
            case .lineBreak:
                return "\n"
            case .reading(let base, let reading):
                return TerminalText.sanitize(base) + style.dim("(" + TerminalText.sanitize(reading) + ")")
            case .sound(let name):
                return style.cyan("♪ " + TerminalText.sanitize(name))
            case .image(let name):
                return style.cyan("▣ " + TerminalText.sanitize(name))
            }
        }.joined().trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
