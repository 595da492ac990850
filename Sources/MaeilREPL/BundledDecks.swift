import Foundation
import MaeilPrograms
import MaeilDecks
import MaeilSession
import MaeilStore

/// The decks that ship with Maeil (Decks/).
package enum BundledDecks {
    /// Decks/, where `DataFolders` finds it.
    package static func directory(environment: [String: String] = ThisProcess.variables) -> URL? {
        DataFolders.decks(environment: environment)
    }

    /// The deck and reading plan folders in a Decks/ directory, Hangul first.
    package static func folders(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted { ($0 == "hangul-jamo" ? 0 : 1, $0) < ($1 == "hangul-jamo" ? 0 : 1, $1) }
            .map { directory.appendingPathComponent($0) }
            .filter { folder in
                [MaeilDeckFormat.manifestName, ReadingPlanFormat.manifestName].contains {
                    FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
                }
            }
    }

    /// Decks for later, not added on a first run: a beginner would otherwise get JLPT N4 and N3
    /// words beside N5, and sound changes beside the letters, from the first day; a reading
    /// plan is a year's commitment a reader chooses. `import Decks/NAME` adds one when its
    /// time comes.
    package static let later: Set<String> = ["jlpt-n4-vocabulary", "jlpt-n4-kanji", "jlpt-n3-vocabulary", "jlpt-n3-kanji",
                                            "hangul-syllables", "mcheyne-reading-plan"]

    /// The decks a first run adds.
    package static func starterFolders(in directory: URL) -> [URL] {
        folders(in: directory).filter { !later.contains($0.lastPathComponent) }
    }

    package static func importAll(from directory: URL, into collection: Collection, now: Date) throws -> ImportSummary {
        let bundle = try DeckReader.read(starterFolders(in: directory).map(\.path), options: ImportOptions())
        return try Importer(collection: collection, now: now).apply(bundle)
    }
}
