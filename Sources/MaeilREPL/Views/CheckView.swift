import Foundation
import MaeilCore
import MaeilStore

/// What `maeil check` found, repaired or recovered.
package enum CheckView {
    package static func lines(_ report: CheckReport, repair: Bool) -> [String] {
        var lines = ["integrity: \(report.integrity)", "cards checked: \(report.cardsChecked)"]
        lines += report.problems.prefix(50).map { "problem: \($0)" }
        if report.problems.count > 50 { lines.append("… and \(report.problems.count - 50) more") }
        if repair { lines.append("repaired: \(report.repaired)") }
        if report.isHealthy { lines.append("ok") } else if !repair { lines.append("run `maeil check --repair` to repair") }
        return lines
    }

    /// Reports a file SQLite finds damaged; with `repair`, recovers what can be read into a new
    /// file beside it. Whether it was recovered.
    package static func damaged(path: String, detail: String, repair: Bool, json: Bool, context: CommandContext) throws -> Bool {
        guard repair else {
            if json {
                context.verbatim(try JSONOutput.string(JSONObject([("integrity", "damaged"), ("detail", detail)])))
            } else {
                damaged(detail: detail).forEach(context.line)
            }
            return false
        }
        let newPath = recoveryPath(for: path, now: context.now, timeZone: context.environment.timeZone)
        let recovery = try Collection.recover(from: path, into: newPath, now: context.now)
        if json {
            context.verbatim(try JSONOutput.string(recovery))
        } else {
            recovered(recovery, from: path, into: newPath, detail: detail).forEach(context.line)
        }
        return true
    }

    static func damaged(detail: String) -> [String] {
        ["integrity: damaged (\(TerminalText.visible(detail, limit: 200)))",
         "run `maeil check --repair` to copy what can be read into a new file beside it"]
    }

    /// Beside the damaged file, named for when it was recovered.
    static func recoveryPath(for path: String, now: Date, timeZone: TimeZone) -> String {
        let stamp = DateText.minute(now, timeZone: timeZone).replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: ":", with: "")
        return (path as NSString).deletingPathExtension + "-recovered-\(stamp).sqlite"
    }

    static func recovered(_ recovery: RecoveryReport, from path: String, into newPath: String, detail: String) -> [String] {
        var lines = ["integrity: damaged (\(TerminalText.visible(detail, limit: 200)))"]
        for table in recovery.tables {
            lines.append("  \(table.name): \(table.rows) rows recovered" + (table.lost ? ", some could not be read" : ""))
        }
        lines.append("Recovered into \(newPath); \(path) is left as it was.")
        lines.append("Use it with --collection \(ShellWords.quoted(newPath)), or move it in place of the damaged file.")
        return lines
    }
}
