import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore
import ZIPFoundation

package enum DeckFiles {
    /// Anki packages made by Anki itself (scripts/fixtures/), kept beside the deck format tests.
    package static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MaeilDecksTests/Fixtures")

    package static func directory() -> URL {
        TestFolders.make("maeil-decks")
    }

    /// Writes `files` (name → text) into a new folder and returns the folder's path.
    package static func write(_ files: [String: String]) throws -> String {
        let folder = directory()
        for (name, text) in files {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return folder.path
    }

    package static func collection() throws -> Collection {
        try Collection(path: directory().appendingPathComponent("collection.sqlite").path)
    }

    /// The collection file a package of the current format holds (`collection.anki21b`),
    /// unpacked to `url`.
    package static func collectionFile(of package: URL, to url: URL) throws {
        let archive = try Archive(url: package, accessMode: .read)
        guard let entry = archive["collection.anki21b"] else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: package.path]) }
        var compressed = Data()
        _ = try archive.extract(entry) { compressed.append($0) }
        _ = try Zstd.decompress(compressed, to: url, limit: 1 << 30)
    }

    /// The names of a package's entries, sorted.
    package static func entryNames(of package: URL) throws -> [String] {
        try Archive(url: package, accessMode: .read).map(\.path).sorted()
    }

    /// A zip made entry by entry, for packages that must not import.
    package static func zip(_ entries: [(String, Data)]) throws -> String {
        let url = directory().appendingPathComponent("package.apkg")
        let archive = try Archive(url: url, accessMode: .create)
        for (name, data) in entries {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return url.path
    }
}

/// A small but complete deck manifest.
package let wordsManifest = """
    format: 1
    id: test-words
    name: Test Words
    kind: word
    speak: word
    fields:
      - {name: word, language: ko}
      - {name: meaning, language: en}
      - {name: note}
    templates:
      - name: recognize
        front: word
        back: [meaning, note]
      - name: recall
        front: meaning
        back: word
        typed: word
    preset:
      scheduler: fsrs
      new_per_day: 5
      learning_steps: 1m 10m
      desired_retention: 0.85
      curriculum_gating: true
    units:
      - {id: day-1, title: Day 1}
      - {id: day-2, title: Day 2}
    items:
      - {id: kimchi, unit: day-1, word: 김치, meaning: kimchi, tags: [food]}
      - {id: rice, unit: day-1, word: 밥, meaning: rice}
      - {id: water, unit: day-2, word: 물, meaning: water}
    """

/// The entries of a zip archive, read with ZIPFoundation (an independent reader) to make
/// tampered packages from real ones.
package enum ZipReading {
    package static func entries(_ url: URL) throws -> [String: Data] {
        let archive = try Archive(url: url, accessMode: .read)
        var result: [String: Data] = [:]
        for entry in archive {
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            result[entry.path] = data
        }
        return result
    }
}
