extension String {
    /// True when the text has something besides whitespace: a field a card can show.
    ///
    /// Checking characters means breaking the text into graphemes, which dominated reading
    /// large files; one printable ASCII byte settles it, and only text without one is looked
    /// at character by character.
    package var hasVisibleText: Bool {
        if utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }) { return true }
        return contains { !$0.isWhitespace }
    }
}
