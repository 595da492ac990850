import Foundation
import MaeilCore
import MaeilDecks
import MaeilSimulator
import ZIPFoundation

/// Peak memory where input or a flag could make it grow without bound: importing zip bombs
/// (refused after their first MiB) and the simulator at its largest.
enum MemoryBenchmarks {
    static var all: [Benchmark] {
        [
            Benchmark(name: "memory.zip_bombs") {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-bombs-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: folder) }
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let collection = try smallCollectionEntry(in: folder)
                let zeros = 1 << 30
                let media = try package(folder.appendingPathComponent("media-bomb.apkg"), [
                    ("collection.anki21", collection), ("media", Data(#"{"0": "bomb.png"}"#.utf8)), ("0", nil),
                ], zeros: zeros)
                let database = try package(folder.appendingPathComponent("collection-bomb.apkg"), [("collection.anki21", nil)], zeros: zeros)
                return try [("media", media), ("collection", database)].map { name, path in
                    let run = try MaeilChild.peakMemory(["import", "--create", "--collection", folder.appendingPathComponent("\(name).sqlite").path, path])
                    guard run.status == 1 else { throw BenchFailure(description: "the \(name) bomb was not refused") }
                    return BenchFigure(name: "memory.import_bomb_1gb_\(name)_peak_mb", value: run.megabytes, unit: "MB")
                }
            },
            Benchmark(name: "memory.sim_largest") {
                var config = SimulationConfig()
                config.items = 10_000_000
                config.days = 30
                config.runs = 1
                let run = try SimBenchmarks.child(items: config.items, days: config.days)
                return [
                    BenchFigure(name: "memory.sim_10m_items_30_days_peak_mb", value: run.megabytes, unit: "MB"),
                    BenchFigure(name: "memory.sim_10m_items_30_days_estimate_mb", value: Double(config.estimatedPeakBytes(concurrent: 1)) / 1_048_576,
                                unit: "MB"),
                ]
            },
        ]
    }

    /// A real collection for a package: one note, as Maeil writes it for Anki (legacy format).
    static func smallCollectionEntry(in folder: URL) throws -> Data {
        let url = folder.appendingPathComponent("small.apkg")
        let clock = DayClock.utc()
        try AnkiPackageWriter.write(ImportBenchmarks.package(notes: 1, reviewsEach: 0), to: url, format: .legacy,
                                    now: Date(timeIntervalSince1970: 1_767_614_400), clock: clock)
        let archive = try Archive(url: url, accessMode: .read)
        guard let entry = archive["collection.anki21"] else { throw BenchFailure(description: "no collection in the export") }
        var data = Data()
        _ = try archive.extract(entry) { data.append($0) }
        return data
    }

    /// A zip of `entries`; an entry without data holds `zeros` zero bytes, deflated.
    static func package(_ url: URL, _ entries: [(String, Data?)], zeros: Int) throws -> String {
        let archive = try Archive(url: url, accessMode: .create)
        let chunk = Data(count: 1 << 20)
        for (name, data) in entries {
            let size = data?.count ?? zeros
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(size), compressionMethod: .deflate) { position, length in
                data.map { $0.subdata(in: Int(position)..<Int(position) + length) } ?? chunk.prefix(length)
            }
        }
        return url.path
    }
}
