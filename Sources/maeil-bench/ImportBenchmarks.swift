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
                try AnkiPackageWriter.write(package(notes: 20_000, reviewsEach: 0), to: file, now: clock.start(ofDay: 20_500), clock: clock)
                return [try timeImport(file.path, name: "import.apkg_20k_notes_s", folder: folder)]
            },
            // Anki takes 20,000 notes with 100,000 reviews back: export from a collection holding them.
            Benchmark(name: "export.apkg") {
                let folder = temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                let (clock, now, source, collection) = try collectionInUse(in: folder)
                // scripts/anki/export-bench.py times Anki exporting this same collection.
                if let keep = ProcessInfo.processInfo.environment["MAEIL_BENCH_KEEP"] {
                    try? FileManager.default.removeItem(atPath: keep)
                    try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: keep))
                }
                var notes = 0
                let seconds = try Benchmarks.bestTime(repeats: 3) {
                    let exported = try Exporter(collection: collection).export(try collection.decks(), now: now, timeZone: .current)
                    try AnkiPackageWriter.write(exported, to: folder.appendingPathComponent("out.apkg"), now: now, clock: clock)
                    notes = exported.decks.reduce(0) { $0 + $1.notes.count }
                }
                precondition(notes == 20_000)
                return [BenchFigure(name: "export.apkg_20k_notes_100k_reviews_s", value: seconds, unit: "s")]
            },
        ]
    }

    /// 20,000 notes with 100,000 reviews in `folder`: as a package (source.apkg) and as a
    /// collection that imported it (c.sqlite), on a fixed UTC day.
    static func collectionInUse(in folder: URL) throws -> (clock: DayClock, now: Date, source: URL, collection: Collection) {
        let clock = DayClock(timeZone: TimeZone(identifier: "UTC")!)
        let now = clock.start(ofDay: 20_500).addingTimeInterval(12 * 3600)
        let source = folder.appendingPathComponent("source.apkg")
        try AnkiPackageWriter.write(package(notes: 20_000, reviewsEach: 10), to: source, now: now, clock: clock)
        let collection = try Collection(path: folder.appendingPathComponent("c.sqlite").path)
        _ = try Importer(collection: collection, now: now).apply(try DeckReader.read([source.path], options: ImportOptions()))
        return (clock, now, source, collection)
    }

    /// A collection in use, as a package: half reviewed (each with `reviewsEach` answers in its
    /// log), a few suspended, the rest new.
    static func package(notes count: Int, reviewsEach: Int) -> ExportCollection {
        let clock = DayClock(timeZone: TimeZone(identifier: "UTC")!)
        let type = AnkiNoteType(id: 1_700_000_000_000, name: "Basic", isCloze: false, fields: ["Front", "Back"],
                                templates: [.init(name: "Card 1", question: "{{Front}}", answer: "{{FrontSide}}<hr id=answer>{{Back}}")],
                                modified: 1_700_000_000, legacyJSON: """
                                    {"css":".card {}","flds":[{"name":"Front","ord":0},{"name":"Back","ord":1}],"sortf":0,"type":0,\
                                    "tmpls":[{"name":"Card 1","ord":0,"qfmt":"{{Front}}","afmt":"{{FrontSide}}<hr id=answer>{{Back}}"}]}
                                    """)
        var notes: [ExportNote] = []
        notes.reserveCapacity(count)
        for index in 0..<count {
            var state = CardState.new
            var history: [ReviewLogEntry] = []
            if index % 2 == 0 {
                state = CardState(phase: .review, intervalDays: index % 90 + 1, easePermille: 2500,
                                  due: clock.start(ofDay: 20_400 + index % 60), reps: 4, lapses: index % 3,
                                  lastReview: clock.start(ofDay: 20_300 + index % 60))
                for review in 0..<reviewsEach {
                    let time = clock.start(ofDay: 20_000 + review * 30 + index % 30).addingTimeInterval(Double(index % 3600))
                    history.append(ReviewLogEntry(time: time, kind: .imported, rating: review % 5 == 0 ? .again : .good,
                                                  durationMilliseconds: 4000, scheduler: "anki",
                                                  before: CardState(phase: review == 0 ? .learning : .review, intervalDays: review * 3),
                                                  after: CardState(phase: .review, intervalDays: review * 3 + 1, easePermille: 2500)))
                }
            }
            notes.append(ExportNote(guid: "apkg-\(index)", noteTypeID: type.id, values: ["단어 \(index)", "word \(index)"], tags: ["bench"],
                                    modified: 1_700_000_000,
                                    cards: [ExportCard(ordinal: 0, state: state, suspended: index % 50 == 0, position: index, modified: 1_700_000_000,
                                                       history: history)]))
        }
        return ExportCollection(noteTypes: [type], decks: [ExportDeck(name: "Bench", preset: Preset(name: "Bench"), notes: notes)], media: [])
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
