import MaeilCore

/// Cells a string takes in a terminal: East Asian wide characters take two.
package enum TerminalWidth {
    package static func of(_ text: String) -> Int {
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

    package static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }
}
