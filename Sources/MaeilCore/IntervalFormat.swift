import Foundation

/// How an interval is written, everywhere Maeil writes one.
public enum IntervalFormat {
    public enum Style: Sendable {
        /// As on an answer button: short, rounded to a unit that fits ("6m", "3h", "4d", "1.8mo").
        case rounded
        /// Exactly, in the largest unit that divides it, so it reads back as the same number of
        /// seconds ("330s", "10m", "2d"): learning steps, and `maeil schedule`.
        case exact
    }

    public static func seconds(_ secs: Int, _ style: Style = .rounded) -> String {
        switch style {
        case .exact:
            if secs != 0, secs % 86_400 == 0 { return "\(secs / 86_400)d" }
            if secs != 0, secs % 3600 == 0 { return "\(secs / 3600)h" }
            if secs != 0, secs % 60 == 0 { return "\(secs / 60)m" }
            return "\(secs)s"
        case .rounded:
            switch secs {
            case ..<60: return "\(secs)s"
            case ..<3600: return "\(Int((Double(secs) / 60).rounded()))m"
            case ..<86_400: return "\(Int((Double(secs) / 3600).rounded()))h"
            default: return days(secs / 86_400)
            }
        }
    }

    /// Whole days; a month or more as months or years with one decimal.
    public static func days(_ days: Int) -> String {
        switch days {
        case ..<31: "\(days)d"
        case ..<365: oneDecimal(Double(days) / 30.4) + "mo"
        default: oneDecimal(Double(days) / 365) + "y"
        }
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
