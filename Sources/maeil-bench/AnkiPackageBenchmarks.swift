import Foundation
import MaeilCore
import MaeilDecks
import MaeilPrograms
import MaeilSession
import MaeilStore

/// Maeil and Anki 26.9.3 on the same package (20,000 notes, 100,000 reviews), in the same run:
/// a first import, the same package again, an .apkg and a .colpkg export, each the best of
/// three; and the first .colpkg, which writes every note (Anki's figure for both is its one
/// .colpkg: its collection is the file). Anki's side is scripts/anki/package-times.py in the
/// Python scripts/setup installs Anki into (.build/anki-venv; MAEIL_ANKI_PYTHON names
/// another); without it, Maeil's alone.
enum AnkiPackageBenchmarks {
    static var all: [Benchmark] {
        [
            Benchmark(name: "packages.against_anki") {
                let folder = ImportBenchmarks.temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                let (clock, now, source, collection) = try ImportBenchmarks.collectionInUse(in: folder)
                var run = 0
                let first = try Benchmarks.bestTime(repeats: 3) {
                    run += 1
                    let collection = try Collection(path: folder.appendingPathComponent("first\(run).sqlite").path)
                    _ = try Importer(collection: collection, now: now).apply(ImportReading(files: [source.path], options: ImportOptions()))
                }
                // The same package again into the collection that took it: every card merged by
                // Anki's rules, nothing newer, no log row twice. Read as `maeil import` reads it.
                let again = try Benchmarks.bestTime(repeats: 3) {
                    let summary = try Importer(collection: collection, now: now).apply(ImportReading(files: [source.path], options: ImportOptions()))
                    precondition(summary.added == 0 && summary.unchanged == 20_000)
                }
                func export(_ format: String) throws -> Double {
                    try Benchmarks.bestTime(repeats: 3) {
                        _ = try ExportFile.write(try collection.decks(), from: collection, to: folder.appendingPathComponent("out.\(format)"),
                                                 format: format, now: now, timeZone: clock.timeZone)
                    }
                }
                let apkg = try export("apkg")
                // A .colpkg: the first writes every note and keeps the file; each one after lays
                // over it the notes changed since, timed after a day's 100 answers (the best of five days).
                let out = folder.appendingPathComponent("out.colpkg")
                let colpkgFirst = try Benchmarks.bestTime(repeats: 1) {
                    _ = try ExportFile.write(try collection.decks(), from: collection, to: out, format: "colpkg", now: now, timeZone: clock.timeZone)
                }
                var colpkg = Double.infinity
                for day in 1...5 {
                    let later = now.addingTimeInterval(Double(day) * 86_400)
                    let session = try ReviewSession(collection: collection, environment: SessionEnvironment(now: { later }, timeZone: clock.timeZone))
                    for _ in 0..<100 where session.state.current != nil { try session.send(.answer(.good)) }
                    colpkg = min(colpkg, try Benchmarks.bestTime(repeats: 1) {
                        _ = try ExportFile.write(try collection.decks(), from: collection, to: out, format: "colpkg", now: later, timeZone: clock.timeZone)
                    })
                }
                let maeil = ["import": first, "import_again": again, "export_apkg": apkg, "export_colpkg": colpkg,
                             "export_colpkg_first": colpkgFirst]
                var figures = maeil.sorted { $0.key < $1.key }.map { BenchFigure(name: "packages.maeil_\($0.key)_s", value: $0.value, unit: "s") }
                if let anki = try ankiTimes(source.path) {
                    for (key, seconds) in maeil.sorted(by: { $0.key < $1.key }) {
                        guard let theirs = anki[key] ?? (key == "export_colpkg_first" ? anki["export_colpkg"] : nil) else { continue }
                        figures.append(BenchFigure(name: "packages.anki_\(key)_s", value: theirs, unit: "s"))
                        figures.append(BenchFigure(name: "packages.ratio_\(key)", value: seconds / theirs, unit: "× Anki"))
                    }
                }
                return figures
            },
            // A full sync of the same collection by Anki's own client and by `maeil sync`, against
            // Anki's own server (scripts/anki/sync-times.py); nothing without Anki's library.
            Benchmark(name: "sync.against_anki") {
                let folder = ImportBenchmarks.temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                let (_, _, source, _) = try ImportBenchmarks.collectionInUse(in: folder)
                guard let python = ankiPython(), FileManager.default.fileExists(atPath: "scripts/anki/sync-times.py") else { return [] }
                let result = try ExternalProgram.run(python, ["scripts/anki/sync-times.py", MaeilChild.executable, source.path])
                guard result.status == 0, let line = result.output.split(separator: "\n").last,
                      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    throw BenchFailure(description: "sync-times.py failed: \(result.output.suffix(800))")
                }
                let seconds = object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
                var figures: [BenchFigure] = []
                for step in ["upload", "download"] {
                    guard let ours = seconds["maeil_\(step)"], let theirs = seconds["anki_\(step)"] else { continue }
                    figures.append(BenchFigure(name: "sync.maeil_full_\(step)_s", value: ours, unit: "s"))
                    figures.append(BenchFigure(name: "sync.anki_full_\(step)_s", value: theirs, unit: "s"))
                    figures.append(BenchFigure(name: "sync.ratio_full_\(step)", value: ours / theirs, unit: "× Anki"))
                }
                // Normal syncs of 1,000 changed cards, sent and taken; ten notes edited, added, deleted and moved on a phone,
                // a deck's options changed, a deck renamed, a deck made there with ten notes, the note type of
                // the most notes restyled there, a deck deleted there, a limit rule turned over and a
                // deck's limit raised for today there, taken.
                for step in ["normal_send", "normal_take", "note_take", "add_take", "delete_take", "move_take", "options_take", "deck_take",
                             "made_take", "type_take", "deck_delete_take", "settings_take", "counts_take"] {
                    guard let ours = seconds["maeil_\(step)"], let theirs = seconds["anki_\(step)"] else { continue }
                    figures.append(BenchFigure(name: "sync.maeil_\(step)_s", value: ours, unit: "s"))
                    figures.append(BenchFigure(name: "sync.anki_\(step)_s", value: theirs, unit: "s"))
                    figures.append(BenchFigure(name: "sync.ratio_\(step)", value: ours / theirs, unit: "× Anki"))
                    // The slowest of the three: a sync slow one time in three shows only here.
                    if let worst = seconds["maeil_\(step)_worst"] { figures.append(BenchFigure(name: "sync.maeil_\(step)_worst_s", value: worst, unit: "s")) }
                }
                return figures
            },
        ]
    }

    static func ankiPython() -> String? {
        let candidates = [ProcessInfo.processInfo.environment["MAEIL_ANKI_PYTHON"], ".build/anki-venv/bin/python"].compactMap { $0 }
        return candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    }

    /// Anki's seconds for the same steps, or nil when Anki's library is not installed.
    static func ankiTimes(_ package: String) throws -> [String: Double]? {
        guard let python = ankiPython(), FileManager.default.fileExists(atPath: "scripts/anki/package-times.py") else { return nil }
        let result = try ExternalProgram.run(python, ["scripts/anki/package-times.py", package])
        guard result.status == 0, let line = result.output.split(separator: "\n").last,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }
}
