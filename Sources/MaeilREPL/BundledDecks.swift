import Foundation
import MaeilDecks
import MaeilSession
import MaeilStore

/// The decks that ship in the repository's Decks/ folder.
public enum BundledDecks {
    /// Decks/ from `$MAEIL_DECKS`, or found walking up from the executable (a build in the
    /// repository: .build/…/release/maeil), or from the working directory.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let explicit = environment["MAEIL_DECKS"], isDecks(URL(fileURLWithPath: explicit)) { return URL(fileURLWithPath: explicit) }
        var starts = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()]
        starts.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        starts.append(URL(fileURLWithPath: "/usr/share/maeil"))
        for start in starts {
            var folder = start
            for _ in 0..<6 {
                let candidate = folder.appendingPathComponent("Decks")
                if isDecks(candidate) { return candidate }
                folder.deleteLastPathComponent()
            }
        }
        return nil
    }

    static func isDecks(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent("hangul-jamo/deck.yaml").path)
    }

    /// The deck folders in a Decks/ directory, Hangul first.
    public static func folders(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted { ($0 == "hangul-jamo" ? 0 : 1, $0) < ($1 == "hangul-jamo" ? 0 : 1, $1) }
            .map { directory.appendingPathComponent($0) }
            .filter { FileManager.default.fileExists(atPath: $0.appendingPathComponent(MaeilDeckFormat.manifestName).path) }
    }

    public static func importAll(from directory: URL, into collection: Collection, now: Date) throws -> ImportSummary {
        let bundle = try DeckReader.read(folders(in: directory).map(\.path), options: ImportOptions())
        return try Importer(collection: collection, now: now).apply(bundle)
    }
}
