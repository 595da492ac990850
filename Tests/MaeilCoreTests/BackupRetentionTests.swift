import Foundation
import Testing
@testable import MaeilCore

/// Backups over a simulated month, thinned after each as Maeil thins them: the newest few, the
/// newest of each recent day, week and month, and no more.
@Suite("Backup retention")
struct BackupRetentionTests {
    @Test func aMonthOfBackupsEveryHalfHourKeepsWhatAnkiWould() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul")!
        let retention = BackupRetention()
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        var kept: [Date] = []
        var made = 0
        // 62 days, a backup every half hour from 8:00 to 22:00 (study hours), thinned after each.
        for day in 0..<62 {
            for slot in 0..<28 {
                let now = start.addingTimeInterval(Double(day) * 86_400 + 8 * 3600 + Double(slot) * 1800)
                guard retention.isDue(now: now, newest: kept.max()) else { continue }
                kept.append(now)
                made += 1
                kept = kept.filter(retention.keep(kept, calendar: calendar).contains)
            }
        }
        #expect(made == 62 * 28)
        #expect(kept.count <= retention.recent + retention.daily + retention.weekly + retention.monthly)
        let newestFirst = kept.sorted(by: >)
        let last = newestFirst[0]
        // The five newest of the last day, every one of them.
        #expect(newestFirst.prefix(5).allSatisfy { last.timeIntervalSince($0) <= 4 * 1800 })
        // One for each of the last 12 days.
        let days = Set(kept.map { calendar.startOfDay(for: $0) })
        for back in 0..<12 { #expect(days.contains(calendar.startOfDay(for: last.addingTimeInterval(-Double(back) * 86_400)))) }
        // And reaching back beyond the month: the newest of earlier weeks and months stay.
        #expect(kept.min()! < last.addingTimeInterval(-40 * 86_400))
        // Never two within the interval.
        for (a, b) in zip(newestFirst, newestFirst.dropFirst()) { #expect(a.timeIntervalSince(b) >= retention.interval) }
    }

    @Test func aBackupIsDueOnlyAfterTheInterval() {
        let retention = BackupRetention(), now = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(retention.isDue(now: now, newest: nil))
        #expect(!retention.isDue(now: now, newest: now.addingTimeInterval(-29 * 60)))
        #expect(retention.isDue(now: now, newest: now.addingTimeInterval(-30 * 60)))
    }
}
