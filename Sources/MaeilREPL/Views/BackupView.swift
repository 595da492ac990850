import Foundation
import MaeilCore
import MaeilStore

/// `maeil backup` and `maeil restore`: the collection's backups, as Anki keeps its own.
package enum BackupView {
    package static let discussion = """
        Maeil also backs up on its own, as Anki does: when a review or the prompt ends and the newest backup \
        is over 30 minutes old. It keeps the 5 newest and the newest of each of the last 12 days, 10 weeks \
        and 9 months, in backups/ beside the collection. Each is a whole collection file.
        """

    static func calendar(_ context: CommandContext) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = context.environment.timeZone
        return calendar
    }

    package static func backUp(list: Bool, _ collection: Collection, _ context: CommandContext) throws {
        guard list else {
            let made = try collection.backUp(now: context.now, calendar: calendar(context))
            return context.line("Backed up \(describe(made)) to \(made.path).")
        }
        let backups = try collection.backups()
        guard !backups.isEmpty else { return context.line("No backups yet; maeil backup makes one.") }
        let rows = backups.enumerated().map { index, backup in
            ["\(index + 1)", DateText.minute(backup.date, timeZone: context.environment.timeZone), "\(backup.notes)", "\(backup.cards)",
             "\(backup.reviews)", String(format: "%.1f MB", Double(backup.bytes) / 1_048_576)]
        }
        context.line(TextTable.render(header: ["#", "date", "notes", "cards", "reviews", "size"], rows: rows))
    }

    package static func restore(_ which: String, into collection: Collection, _ context: CommandContext) throws {
        let backups = try collection.backups()
        let chosen: Backup
        if let number = Int(which) {
            guard backups.indices.contains(number - 1) else { throw UserError("there is no backup \(number); maeil backup --list shows them") }
            chosen = backups[number - 1]
        } else {
            guard FileManager.default.fileExists(atPath: which) else { throw UserError("there is no backup at \(which); maeil backup --list shows them") }
            chosen = try Collection.describe(URL(fileURLWithPath: which))
        }
        let before = try collection.restore(chosen, now: context.now, calendar: calendar(context))
        context.line("Restored the backup of \(DateText.minute(chosen.date, timeZone: context.environment.timeZone)): \(describe(chosen)).")
        context.line(context.style.dim("The collection as it was is backup 1 now (\(before.path)); maeil restore 1 puts it back."))
    }

    static func describe(_ backup: Backup) -> String {
        "\(counted(backup.notes, "note")), \(counted(backup.cards, "card")), \(counted(backup.reviews, "review"))"
    }
}

extension CommandContext {
    /// A backup when one is due, quietly: at the end of a review or of the prompt.
    package func backUpIfDue(_ collection: Collection) {
        do {
            try collection.backUpIfDue(now: now, calendar: BackupView.calendar(self))
        } catch {
            console.error("the backup failed: \(error)")
        }
    }
}
