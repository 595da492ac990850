/// Card content and everything else from a file is untrusted: a deck can carry escape
/// sequences that would move the cursor, retitle the window, write the clipboard or worse.
/// This is the one sanitizer: card text before it is drawn, file-supplied words inside error
/// messages, media names, widget output, and the console's own output boundary.
package enum TerminalText {
    /// A character that must never reach a terminal, a widget or a file name from a file:
    /// C0 and C1 controls, DEL, and the bidirectional overrides and isolates that can make
    /// text read as something else.
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F, 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether the text holds any unsafe character.
    package static func isClean(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: isUnsafe)
    }

    /// Output at the console's boundary: everything `sanitize` removes goes, except the colour
    /// and weight codes Maeil writes itself (ESC [ digits and semicolons m).
    package static func sanitizeKeepingColour(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        return sanitize(text, keepingColour: true)
    }

    /// JSON text with every unsafe character inside its strings written as \uXXXX: encoders
    /// escape C0 controls but pass C1 controls and direction overrides through raw.
    package static func escapingUnsafe(json: String) -> String {
        guard json.unicodeScalars.contains(where: { $0.value >= 0x7F && isUnsafe($0) }) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x7F, isUnsafe(scalar) {
                result += String(format: "\\u%04X", scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A file-supplied word for one line of a message: sanitized, line breaks as spaces, and
    /// cut short when long.
    package static func visible(_ text: String, limit: Int = 80) -> String {
        let clean = sanitize(text).replacingOccurrences(of: "\n", with: " ")
        return clean.count > limit ? String(clean.prefix(limit - 1)) + "…" : clean
    }

    /// Removes ESC sequences (CSI, OSC, DCS and the rest), other C0 and C1 control characters
    /// and DEL. Newlines and tabs are kept (tabs become spaces).
    package static func sanitize(_ text: String) -> String {
        sanitize(text, keepingColour: false)
    }

    static func sanitize(_ text: String, keepingColour: Bool) -> String {
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                let sequence = skipEscapeSequence(&scalars)
                if keepingColour, isColour(sequence) {
                    result.append(scalar)
                    result.append(contentsOf: sequence)
                }
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

    /// Skips the rest of an escape sequence; returns what it skipped, for CSI sequences.
    private static func skipEscapeSequence(_ scalars: inout String.UnicodeScalarView.Iterator) -> [Unicode.Scalar] {
        guard let next = scalars.next() else { return [] }
        switch next {
        case "[": return ["["] + skipUntilFinal(&scalars)
        case "]", "P", "X", "^", "_": skipString(&scalars)
        case "(", ")", "*", "+", "#", "%", " ": _ = scalars.next()  // one more byte names the charset or mode
        default: break
        }
        return []
    }

    /// "[1;32m": select graphic rendition, and nothing else.
    private static func isColour(_ sequence: [Unicode.Scalar]) -> Bool {
        guard sequence.count >= 2, sequence.first == "[", sequence.last == "m" else { return false }
        return sequence.dropFirst().dropLast().allSatisfy { ("0"..."9").contains($0) || $0 == ";" }
    }

    /// CSI parameters and intermediates run until a final byte in @…~.
    @discardableResult
    private static func skipUntilFinal(_ scalars: inout String.UnicodeScalarView.Iterator) -> [Unicode.Scalar] {
        var skipped: [Unicode.Scalar] = []
        while let scalar = scalars.next() {
            skipped.append(scalar)
            if (0x40...0x7E).contains(scalar.value) { return skipped }
        }
        return skipped
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

