import Foundation
import MaeilCore
import MaeilDecks
import MaeilTestSupport
import Testing

/// The million-card bench (`maeil bench --filter million`) in small: a collection four times
/// as large must not make `import` or `export` take memory in proportion, as they did when they
/// held a whole package or deck. Debug build, 10,000 → 40,000 notes: the code that held them grew
/// 68 MB (import) and 139 MB (export); streaming, 22 and 14 MB (SQLite's caches filling up).
@Suite("Memory that stays flat as a collection grows")
struct MemoryScaleTests {
    /// A package of `count` notes, half of them reviewed with two answers each.
    static func package(notes count: Int) -> ExportCollection {
        let clock = DayClock(timeZone: TimeZone(identifier: "UTC")!)
        let type = AnkiNoteType(id: 1_700_000_000_000, name: "Basic", isCloze: false, fields: ["Front", "Back"],
                                templates: [.init(name: "Card 1", question: "{{Front}}", answer: "{{FrontSide}}<hr id=answer>{{Back}}")],
                                modified: 1_700_000_000, legacyJSON: "{}")
        let notes = (0..<count).map { index in
            var state = CardState.new
            var history: [ReviewLogEntry] = []
            if index % 2 == 0 {
                state = CardState(phase: .review, intervalDays: index % 90 + 1, easePermille: 2500, due: clock.start(ofDay: 20_400 + index % 60),
                                  reps: 2, lastReview: clock.start(ofDay: 20_300 + index % 60))
                history = (0..<2).map { review in
                    ReviewLogEntry(time: clock.start(ofDay: 20_000 + review * 30 + index % 30).addingTimeInterval(Double(index % 3600)),
                                   kind: .imported, rating: .good, durationMilliseconds: 4000, scheduler: "anki",
                                   before: CardState(phase: review == 0 ? .learning : .review, intervalDays: review * 3),
                                   after: CardState(phase: .review, intervalDays: review * 3 + 1, easePermille: 2500))
                }
            }
            return ExportNote(guid: "scale-\(index)", noteTypeID: type.id, values: ["단어 \(index)", "word \(index) of the scale test"],
                              tags: ["scale"], modified: 1_700_000_000,
                              cards: [ExportCard(ordinal: 0, state: state, suspended: false, position: index, history: history)])
        }
        return ExportCollection(noteTypes: [type], decks: [ExportDeck(name: "Scale", preset: Preset(name: "Scale"), notes: notes)], media: [])
    }

    /// `maeil ARGUMENTS`' peak resident memory in MB, as the binary reports it at its end.
    static func peak(_ arguments: [String], in folder: URL) throws -> Double {
        let report = folder.appendingPathComponent("peak-\(UUID().uuidString)")
        let result = try Binary.run(arguments, environment: ["MAEIL_PEAK_MEMORY_TO": report.path, "HOME": folder.path,
                                                           "XDG_STATE_HOME": folder.path, "XDG_DATA_HOME": folder.path])
        guard result.status == 0 else { throw Failure("maeil \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)") }
        return try #require(Double(String(contentsOf: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func importAndExportDoNotHoldTheCollection() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-scale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = DayClock(timeZone: TimeZone(identifier: "UTC")!)
        var peaks: [Int: (import: Double, export: Double)] = [:]
        for count in [10_000, 40_000] {
            let package = folder.appendingPathComponent("scale-\(count).apkg")
            try AnkiPackageWriter.write(Self.package(notes: count), to: package, now: clock.start(ofDay: 20_500), clock: clock)
            let collection = folder.appendingPathComponent("scale-\(count).sqlite").path
            let imported = try Self.peak(["import", package.path, "--create", "--collection", collection], in: folder)
            let exported = try Self.peak(["export", "--out", folder.appendingPathComponent("out-\(count).apkg").path, "--collection", collection],
                                         in: folder)
            peaks[count] = (imported, exported)
        }
        let small = try #require(peaks[10_000]), large = try #require(peaks[40_000])
        #expect(large.import - small.import < 45, "import: \(small.import) MB at 10,000 notes, \(large.import) MB at 40,000")
        #expect(large.export - small.export < 45, "export: \(small.export) MB at 10,000 notes, \(large.export) MB at 40,000")
    }
}
