import Foundation
import MaeilCore
import MaeilDecks
import MaeilSimulator
import ZIPFoundation
#if canImport(Glibc)
import Glibc
#endif

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
                    let run = try peakMemory(["import", "--create", "--collection", folder.appendingPathComponent("\(name).sqlite").path, path])
                    guard run.status == 1 else { throw SimBenchmarks.Failure(description: "the \(name) bomb was not refused") }
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
        guard let entry = archive["collection.anki21"] else { throw SimBenchmarks.Failure(description: "no collection in the export") }
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

    /// Runs `maeil ARGUMENTS` in a child and returns its exit status and peak resident memory,
    /// as the child reads its own (VmHWM) when it exits.
    static func peakMemory(_ arguments: [String]) throws -> (status: Int32, megabytes: Double) {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-peak-\(UUID().uuidString)").path
        defer { unlink(report) }
        let variables = ProcessInfo.processInfo.environment.merging(["MAEIL_PEAK_MEMORY_TO": report]) { $1 }.map { "\($0.key)=\($0.value)" }
        let environment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, argv, environment) == 0 else {
            throw SimBenchmarks.Failure(description: "cannot start \(executable)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard let text = try? String(contentsOfFile: report, encoding: .utf8),
              let megabytes = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SimBenchmarks.Failure(description: "the child reported no peak memory")
        }
        return ((status >> 8) & 0xFF, megabytes)
    }
}
