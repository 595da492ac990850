import Foundation
import MaeilCore

/// The focus list as each widget reads it; the README's focus section shows each widget's
/// configuration.
package enum FocusFormat: String, Sendable, CaseIterable {
    /// Versioned JSON ("schema": 2), for scripts and Übersicht.
    case json
    /// Plain text for Conky's ${cat} and Polybar: the first line is the bar text.
    case text
    /// Waybar's custom module with `return-type: json`: one line {text, alt, tooltip, class, percentage}.
    case waybar
    /// i3status-rust's custom block with `json = true`: {icon, state, text, short_text}.
    case i3status
    /// xbar, SwiftBar and Argos: a bar line, `---`, then the items as a menu.
    case xbar

    package func render(_ list: FocusList) -> String {
        switch self {
        case .json: Self.json(list)
        case .text: Self.text(list)
        case .waybar: Self.waybar(list)
        case .i3status: Self.i3status(list)
        case .xbar: Self.xbar(list)
        }
    }

    static func encoded<T: Encodable>(_ value: T, pretty: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // C1 controls and direction overrides in card text are written as \u escapes, not raw.
        return TerminalText.escapingUnsafe(json: String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self))
    }

    /// Waybar reads its text and tooltip as Pango markup: card text must not become markup.
    static func pango(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func json(_ list: FocusList) -> String { encoded(list, pretty: true) + "\n" }

    /// Marks a widget's font will have: desktop widgets often draw with one CJK or UI font
    /// and no fallback, and Noto CJK and DejaVu both carry these four (not ✗ or ◔).
    static let marks: [FocusList.Reason: String] = [.starred: "★", .leech: "⚠", .missed: "×", .atRisk: "△"]

    static func line(_ item: FocusList.Item) -> String {
        let mark = item.reasons.compactMap { marks[$0] }.first ?? "·"
        return "\(mark) \(oneLine(item.front)) — \(oneLine(item.back))"
    }

    /// Widgets show one line per item; card text is untrusted, so control characters go too.
    static func oneLine(_ text: String, limit: Int = 60) -> String {
        let flat = TerminalText.sanitize(text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return flat.count > limit ? String(flat.prefix(limit - 1)) + "…" : flat
    }

    static func summary(_ list: FocusList) -> String {
        var text = "매일 \(list.counts.due) due · \(list.counts.learning) learning · \(list.counts.new) new"
        if list.counts.streak > 0 { text += " · \(list.counts.streak)d streak" }
        return text
    }

    /// "» Genesis 1 · Matthew 1 · Ezra 1 · Acts 1" while a day has readings left; nothing once it is read.
    /// (» is in the fonts the marks above rely on; an emoji is not.)
    static func readingLines(_ list: FocusList) -> [String] {
        list.readings.filter { !$0.finishedToday }.map { "» " + oneLine($0.unread.joined(separator: " · "), limit: 80) }
    }

    static func text(_ list: FocusList) -> String {
        ([summary(list)] + readingLines(list) + list.items.map(line)).joined(separator: "\n") + "\n"
    }

    struct Waybar: Encodable {
        let text: String
        let alt: String
        let tooltip: String
        let `class`: [String]
        let percentage: Int
    }

    static func waybar(_ list: FocusList) -> String {
        let counts = list.counts
        let total = counts.waiting + counts.learned
        let percentage = total == 0 ? 100 : Int((Double(counts.learned) / Double(total) * 100).rounded())
        let tooltip = pango(([summary(list)] + readingLines(list) + list.items.map(line)).joined(separator: "\n"))
        let classes = [counts.waiting == 0 ? "done" : "due"] + (list.items.contains { $0.reasons.contains(.leech) } ? ["leech"] : [])
        return encoded(Waybar(text: "매일 \(counts.waiting)", alt: counts.waiting == 0 ? "done" : "due", tooltip: tooltip, class: classes,
                              percentage: percentage), pretty: false) + "\n"
    }

    struct I3Status: Encodable {
        let icon: String
        let state: String
        let text: String
        let shortText: String

        enum CodingKeys: String, CodingKey { case icon, state, text, shortText = "short_text" }
    }

    static func i3status(_ list: FocusList) -> String {
        let counts = list.counts, waiting = counts.waiting
        let state = waiting == 0 ? "Good" : (waiting > 100 ? "Critical" : (waiting > 30 ? "Warning" : "Info"))
        let first = list.items.first.map { " · " + oneLine($0.front, limit: 20) } ?? ""
        return encoded(I3Status(icon: "", state: state, text: "매일 \(counts.due) due · \(counts.learning) learning\(first)",
                                shortText: "\(waiting)"), pretty: false) + "\n"
    }

    static func xbar(_ list: FocusList) -> String {
        var lines = ["매일 \(list.counts.waiting)", "---", summary(list)]
        lines += readingLines(list).map { $0.replacingOccurrences(of: "|", with: "/") + " | bash=maeil param1=read terminal=true" }
        lines += list.items.map { line($0).replacingOccurrences(of: "|", with: "/") + " | trim=false" }
        lines += ["---", "Review the focus list | bash=maeil param1=review param2=--focus terminal=true",
                  "Review today's cards | bash=maeil param1=review terminal=true"]
        return lines.joined(separator: "\n") + "\n"
    }
}
