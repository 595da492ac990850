import Foundation
import MaeilCore
import Yams

/// A reading plan folder: plan.yaml names the plan and its readings, and a TSV file beside it
/// holds one line a day (`day`, `date`, then one column per reading). docs/decks.md shows one.
package enum ReadingPlanFormat {
    package static let manifestName = "plan.yaml"
    static let keys = ["format", "id", "name", "description", "readings", "days"]

    /// Reads `path`: a plan.yaml, or a folder holding one.
    package static func read(path: String, options: ImportOptions) throws -> ReadingPlan {
        let manifest = try InputFile.manifest(manifestName, at: path, options: options)
        let root = try MaeilDeckFormat.compose(manifest.text, file: manifest.path, whenEmpty: "a plan needs id, name, readings and days")
        let reader = ManifestReader(file: manifest.path, directory: (manifest.path as NSString).deletingLastPathComponent, options: options)
        return try plan(root, reader: reader)
    }

    static func plan(_ root: Node, reader: ManifestReader) throws -> ReadingPlan {
        let top = try reader.mapping(root, "a reading plan")
        try reader.checkKeys(top, allowed: keys, in: "the plan")
        if let format = top["format"], format.int != 1 {
            throw reader.problem(format, "format \(format.string ?? "?") is newer than this Maeil understands (1); upgrade Maeil")
        }
        let key = try reader.string(top["id"], "id (a stable name such as mcheyne)", in: root)
        guard key.range(of: #"^[a-z0-9][a-z0-9._-]*$"#, options: .regularExpression) != nil else {
            throw reader.problem(top["id"], "id '\(key)' may hold only lowercase letters, digits, '.', '_' and '-'")
        }
        let name = try reader.string(top["name"], "name", in: root)
        let description = try top["description"].map { try reader.string($0, "description", in: root) } ?? ""
        guard let partsNode = top["readings"], case .sequence(let partList) = partsNode, !partList.isEmpty else {
            throw reader.problem(top["readings"] ?? root, "readings must list the names of a day's readings, e.g. [morning, evening]")
        }
        let parts = try partList.map { try reader.string($0, "a reading's name", in: partsNode) }
        guard Set(parts).count == parts.count else { throw reader.problem(partsNode, "two readings have the same name") }
        guard let daysNode = top["days"], case .scalar(let daysName) = daysNode else {
            throw reader.problem(top["days"] ?? root, "days must name a TSV file beside plan.yaml")
        }
        let days = try self.days(named: daysName.string, node: daysNode, parts: parts, reader: reader)
        return ReadingPlan(key: key, name: name, description: description, parts: parts, days: days)
    }

    static func days(named name: String, node: Node, parts: [String], reader: ManifestReader) throws -> [ReadingDay] {
        let path = try reader.fileBeside(named: name, node: node, key: "days")
        let table = TSV.parse(try InputFile.readText(path, options: reader.options), file: path)
        let expected = ["day", "date"] + parts
        guard let header = table.header else { throw ImportProblem(file: path, line: 1, column: 1, message: "the file is empty; its first line names the columns") }
        guard header.cells == expected else {
            throw ImportProblem(file: path, line: header.line, column: 1,
                                message: "the columns must be: \(expected.joined(separator: ", ")) (the readings plan.yaml lists)")
        }
        var days: [ReadingDay] = []
        for row in table.rows {
            guard row.cells.count == expected.count else {
                throw ImportProblem(file: path, line: row.line, column: row.columns.last ?? 1,
                                    message: "expected \(expected.count) columns, found \(row.cells.count)")
            }
            guard Int(row.cells[0]) == days.count + 1 else {
                throw ImportProblem(file: path, line: row.line, column: 1, message: "day '\(row.cells[0])' should be \(days.count + 1): days are numbered in order from 1")
            }
            let readings = Array(row.cells.dropFirst(2)).map { $0.trimmingCharacters(in: .whitespaces) }
            if readings.allSatisfy(\.isEmpty) {
                throw ImportProblem(file: path, line: row.line, column: row.columns[2], message: "a day needs at least one reading")
            }
            days.append(ReadingDay(number: days.count + 1, label: row.cells[1], readings: readings))
        }
        guard !days.isEmpty else { throw ImportProblem(file: path, line: header.line, column: 1, message: "the plan has no days") }
        return days
    }
}
