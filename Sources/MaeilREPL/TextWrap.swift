import Foundation

/// Lines fitted to a terminal's width at word boundaries, so a terminal never breaks a word in
/// the middle. Colour codes take no room; wide (CJK) characters take two cells.
package enum TextWrap {
    /// `text` with every line longer than `width` cells broken at its last space that fits; a
    /// word longer than a whole line is broken where it must be (as Japanese, with no spaces, is).
    package static func wrap(_ text: String, width: Int) -> String {
        guard width > 8 else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { wrapLine(String($0), width: width) }
            .joined(separator: "\n")
    }

    /// A line of groups joined by " · " (counts, answer buttons, a deck's header) breaks between
    /// groups, the separator left out at the break: broken between words, "365d" ended a line and
    /// its "100.0% of 1" began the next. A group longer than a line breaks between its words.
    /// An indented line keeps its indent on every line it breaks into: before, the indent was
    /// lost, and "  The server's copy: …" broke out of the list it stood in.
    static func wrapLine(_ line: String, width: Int) -> String {
        guard cells(line) > width else { return line }
        let indent = String(line.prefix { $0 == " " })
        if !indent.isEmpty, width - indent.count > 8 {
            return wrapLine(String(line.dropFirst(indent.count)), width: width - indent.count)
                .split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }.joined(separator: "\n")
        }
        let groups = line.components(separatedBy: TextWrap.groupSeparator)
        guard groups.count > 1 else { return wrapWords(line, width: width) }
        var lines: [String] = []
        var current = groups[0]
        for group in groups.dropFirst() {
            let joined = current + TextWrap.groupSeparator + group
            if cells(joined) <= width {
                current = joined
            } else {
                lines.append(wrapWords(current, width: width))
                current = group
            }
        }
        lines.append(wrapWords(current, width: width))
        return lines.joined(separator: "\n")
    }

    static let groupSeparator = " · "

    static func wrapWords(_ line: String, width: Int) -> String {
        guard cells(line) > width else { return line }
        var lines: [String] = []
        var current = ""
        var currentCells = 0
        // Words keep the colour codes inside them; a space between words is where a line may end.
        for word in line.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let wordCells = cells(word)
            let needed = currentCells == 0 ? wordCells : currentCells + 1 + wordCells
            if needed <= width {
                current += currentCells == 0 && current.isEmpty ? word : " " + word
                currentCells = needed
                continue
            }
            if currentCells > 0 || !current.isEmpty { lines.append(current) }
            current = ""
            currentCells = 0
            var rest = word
            while cells(rest) > width {
                let (head, tail) = split(rest, atCells: width)
                lines.append(head)
                rest = tail
            }
            current = rest
            currentCells = cells(rest)
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }

    /// Cells the text takes, colour codes left out.
    package static func cells(_ text: String) -> Int {
        TerminalWidth.of(stripped(text))
    }

    /// The text without escape sequences (CSI colour codes).
    static func stripped(_ text: String) -> String {
        guard text.contains("\u{1B}") else { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                result.append(scalar)
                continue
            }
            while let next = scalars.next() {
                if (0x40...0x7E).contains(next.value), next != "[" { break }
            }
        }
        return String(result)
    }

    /// The longest head of `text` that fits in `limit` cells, and the rest.
    static func split(_ text: String, atCells limit: Int) -> (String, String) {
        var head = ""
        var used = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let width = character == "\u{1B}" ? 0 : TerminalWidth.of(String(character))
            if used + width > limit { break }
            head.append(character)
            used += width
            index = text.index(after: index)
        }
        return (head, String(text[index...]))
    }

    /// The terminal's width in cells, or nil when standard output is not a terminal.
    package static func terminalWidth() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
