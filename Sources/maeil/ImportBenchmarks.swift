import Foundation
import MaeilCore
import MaeilDecks
import MaeilSession
import MaeilStore

/// Importing 20,000 notes into a new collection, from an Anki text file and from an .apkg.
enum ImportBenchmarks {
    static var all: [Benchmark] {
        [
            Benchmark(name: "import.anki_text") {
                let folder = temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                let file = folder.appendingPathComponent("notes.txt")
                var text = "#separator:tab\n#html:false\n#notetype:Basic\n#deck:Bench\n#guid column:1\n#tags column:4\n"
                for index in 0..<20_000 {
                    text += "g\(index)\t단어 \(index)\tword \(index), with a longer meaning to be realistic\tbench tag\(index % 7)\n"
                }
                try Data(text.utf8).write(to: file)
                return [try timeImport(file.path, name: "import.anki_text_20k_notes_s", folder: folder)]
            },
            Benchmark(name: "import.apkg") {
                let folder = temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                let file = folder.appendingPathComponent("notes.apkg")
                let clock = DayClock(timeZone: TimeZone(identifier: "UTC")!)
                let created = clock.start(ofDay: 20_000)
                var notes: [ExportNote] = []
                for index in 0..<20_000 {
                    // A collection in use: half reviewed, a few in learning, the rest new.
                    var state = CardState.new
                    if index % 2 == 0 {
                        state = CardState(phase: .review, intervalDays: index % 90 + 1, easePermille: 2500,
                                          due: clock.start(ofDay: 20_400 + index % 60), reps: 4, lapses: index % 3)
                    }
                    notes.append(ExportNote(guid: "apkg-\(index)", values: ["단어 \(index)", "word \(index)"], tags: ["bench"],
                                            cards: [ExportCard(ordinal: 0, state: state, suspended: index % 50 == 0, position: index)]))
                }
                let deck = ExportDeck(name: "Bench", fieldNames: ["Front", "Back"],
                                      templates: [CardTemplate(name: "Card 1", front: ["Front"], back: ["Back"])], isCloze: false, notes: notes)
                try AnkiPackageWriter.write([deck], to: file, created: created, clock: clock)
                return [try timeImport(file.path, name: "import.apkg_20k_notes_s", folder: folder)]
            },
        ]
    }

    static func temporaryFolder() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-bench-import-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Reading the file and committing every note, into a new collection each time.
    static func timeImport(_ path: String, name: String, folder: URL) throws -> BenchFigure {
        var run = 0
        let seconds = try Benchmarks.bestTime(repeats: 3) {
            run += 1
            // As `maeil import` does it: the file is read while the collection is opened and written.
            let reading = ImportReading { emit in try DeckReader.stream([path], options: ImportOptions(), emit: emit) }
            let collection = try Collection(path: folder.appendingPathComponent("c\(run).sqlite").path)
            let summary = try Importer(collection: collection, now: Date()).apply(reading)
            precondition(summary.added == 20_000)
        }
        return BenchFigure(name: name, value: seconds, unit: "s")
    }
}
