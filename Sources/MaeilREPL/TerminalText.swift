/// Card content is untrusted: a deck can carry escape sequences that would move the cursor,
/// retitle the window or worse. Everything from a card passes through here before printing.
public enum TerminalText {
    /// Removes ESC sequences (CSI, OSC, DCS and the rest), other C0 and C1 control characters
    /// and DEL. Newlines and tabs are kept (tabs become spaces).
    public static func sanitize(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                skipEscapeSequence(&scalars)
            case 0x9B:  // C1 CSI: a sequence like ESC [
                skipUntilFinal(&scalars)
            case 0x90, 0x9D, 0x9E, 0x9F, 0x98:  // C1 DCS, OSC, PM, APC, SOS: strings ending in ST or BEL
                skipString(&scalars)
            case 0x0A:
                result.append(scalar)
            case 0x09:
                result.append(" ")
            case 0x00...0x1F, 0x7F, 0x80...0x9F:
                continue
            case 0x202A...0x202E, 0x2066...0x2069:  // bidi overrides and isolates can disguise text
                continue
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func skipEscapeSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let next = scalars.next() else { return }
        switch next {
        case "[": skipUntilFinal(&scalars)
        case "]", "P", "X", "^", "_": skipString(&scalars)
        case "(", ")", "*", "+", "#", "%", " ": _ = scalars.next()  // one more byte names the charset or mode
        default: return
        }
    }

    /// CSI parameters and intermediates run until a final byte in @…~.
    private static func skipUntilFinal(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) { return }
        }
    }

    /// OSC, DCS and the like end with BEL or ST (ESC \ or U+009C).
    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                _ = scalars.next()
                return
            default: continue
            }
        }
    }
}

/// Cells a string takes in a terminal: East Asian wide characters take two.
public enum TerminalWidth {
    public static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            let value = scalar.value
            let category = scalar.properties.generalCategory
            if category == .nonspacingMark || category == .enclosingMark || category == .format { return width }
            // Conjoining jamo medials and finals join the syllable before them.
            if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return width }
            let wide = (0x1100...0x115F).contains(value) || (0x2E80...0x303E).contains(value)
                || (0x3041...0x33FF).contains(value) || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
                || (0xA960...0xA97F).contains(value) || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
                || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value) || (0xFFE0...0xFFE6).contains(value)
                || (0x1F300...0x1F64F).contains(value) || (0x1F900...0x1F9FF).contains(value) || (0x20000...0x3FFFD).contains(value)
            return width + (wide ? 2 : 1)
        }
    }

    public static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }
}
