import Foundation
import MaeilCore
import MaeilStore

/// `maeil stats` at a terminal.
package enum StatsView {
    package static func render(_ stats: CollectionStats, style: Style) -> String {
        var lines: [String] = []
        let today = TodayCounts(due: stats.dueToday, learning: stats.learningToday, new: stats.newToday)
        lines.append(style.bold("Today") + ": " + today.text(style) + " · \(counted(stats.cardsAnsweredToday, "card")) studied")
        lines.append("Next 30 days: " + Sparkline.render(stats.forecast.map { Double($0.count) })
                     + " · " + counted(stats.forecast.reduce(0) { $0 + $1.count }, "review"))
        lines.append("Last 30 days: " + Sparkline.render(stats.reviewsPerDay.map { Double($0.count) })
                     + " · " + counted(stats.reviewsPerDay.reduce(0) { $0 + $1.count }, "answer"))
        let retention = stats.retention.map { item in
            "\(item.days)d " + (item.rate.map { String(format: "%.1f%%", $0 * 100) } ?? "–") + " of \(item.reviews)"
        }
        lines.append("True retention: " + retention.joined(separator: " · "))
        lines.append("Streak: \(counted(stats.streak, "day")) · studied today \(stats.secondsStudiedToday / 60) min · in all "
                     + "\(stats.secondsStudiedTotal / 3600) h \(stats.secondsStudiedTotal % 3600 / 60) min")
        lines.append("Cards: \(stats.totalCards) · \(stats.starred) starred · \(stats.suspended) suspended")
        return lines.joined(separator: "\n")
    }
}
