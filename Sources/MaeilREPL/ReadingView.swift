import MaeilCore
import MaeilFocus

/// A reading plan's day at the terminal: the greeting's line and `maeil read`'s screen.
package enum ReadingView {
    /// "Reading · day 12: Genesis 12 · Matthew 11 · Nehemiah 1 · Acts 11", only the readings
    /// left; "Reading · day 12 read today ✓" once they are all read.
    package static func greeting(_ reading: TodayReading, style: Style) -> String {
        if reading.finishedToday { return style.dim("Reading · ") + "day \(reading.day) read today " + style.green("✓") }
        return style.dim("Reading · day \(reading.day):") + " " + reading.unread.map(unbroken).joined(separator: " · ")
    }

    /// A narrow terminal breaks the line between readings (`TextWrap` breaks between groups),
    /// never inside a reference ("Psalm 119:1–24"): the spaces there are no-break spaces.
    static func unbroken(_ reference: String) -> String {
        TerminalText.sanitize(reference).replacingOccurrences(of: " ", with: "\u{00A0}")
    }

    /// The plan, the day, and each reading numbered for `read done N`, read ones ticked.
    package static func lines(_ reading: TodayReading, style: Style) -> [String] {
        let title = style.bold(TerminalText.sanitize(reading.plan)) + " — day \(reading.day)\(dated(reading))"
        let progress = "\(reading.daysRead) of \(reading.totalDays) days read."
        let width = reading.readings.map { TerminalWidth.of(TerminalText.sanitize($0.part)) }.max() ?? 0
        var lines = [title]
        for (index, item) in reading.readings.enumerated() {
            let mark = item.read ? style.green("✓") : style.dim("·")
            lines.append("  \(index + 1) \(mark) " + style.dim(TerminalWidth.padded(TerminalText.sanitize(item.part), to: width))
                         + "  " + TerminalText.sanitize(item.reference))
        }
        if reading.finishedToday {
            lines.append(style.dim("\(progress) The next day's readings come tomorrow; read --day \(reading.day + 1) shows them now."))
        } else if reading.readings.contains(where: { !$0.read }) {
            lines.append(style.dim("\(progress) read done marks them all; read done 2 marks one."))
        } else {
            lines.append(style.dim(progress))
        }
        return lines
    }

    static func dated(_ reading: TodayReading) -> String {
        reading.date.isEmpty ? "" : ", " + TerminalText.sanitize(reading.date)
    }
}
