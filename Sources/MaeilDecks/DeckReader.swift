import Foundation

/// Reads any supported file into decks: picks the format from the file itself.
public enum DeckReader {
    public enum Format: String, Sendable {
        case maeil, ankiText = "anki-text", delimited = "csv", ankiPackage = "anki-package"
    }

    /// Which format a path holds, from its extension and its first bytes.
    public static func format(of path: String) throws -> Format {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportProblem(file: path, message: "no such file or folder")
        }
        if isDirectory.boolValue {
            guard FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(MaeilDeckFormat.manifestName)) else {
                throw ImportProblem(file: path, message: "this folder has no \(MaeilDeckFormat.manifestName), so it is not a Maeil deck")
            }
            return .maeil
        }
        let lowered = path.lowercased()
        if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") { return .maeil }
        if lowered.hasSuffix(".apkg") || lowered.hasSuffix(".colpkg") { return .ankiPackage }
        let head = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 4096)) ?? Data()
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .ankiPackage }
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        if AnkiTextFormat.hasHeaderLines(text) || lowered.hasSuffix(".txt") { return .ankiText }
        if lowered.hasSuffix(".csv") || lowered.hasSuffix(".tsv") { return .delimited }
        let notADeck = "this is not a deck: Maeil reads deck.yaml folders, Anki text (.txt), CSV/TSV and .apkg/.colpkg"
        if head.contains(0) { throw ImportProblem(file: path, message: notADeck) }
        // Another extension (.md, .json, .html…) is some other kind of file: taking it for a
        // table would import its lines as cards. A file with no extension is sniffed as one.
        if !(path as NSString).pathExtension.isEmpty {
            throw ImportProblem(file: path, message: notADeck + "; rename it if it is one of these")
        }
        return .delimited
    }

    /// Reads every path. Strict by default: the first file with problems stops the import
    /// with all of that file's problems; with `skipInvalid`, bad rows are skipped and listed.
    public static func read(_ paths: [String], options: ImportOptions) throws -> ImportBundle {
        var bundle = ImportBundle()
        for path in paths {
            switch try format(of: path) {
            case .maeil:
                let (deck, skipped) = try MaeilDeckFormat.read(path: path, options: options)
                bundle.decks.append(deck)
                bundle.skipped += skipped
            case .ankiText:
                let (decks, skipped) = try AnkiTextFormat.read(path: path, options: options)
                bundle.decks += decks
                bundle.skipped += skipped
            case .delimited:
                let (deck, skipped) = try DelimitedFormat.read(path: path, options: options)
                bundle.decks.append(deck)
                bundle.skipped += skipped
            case .ankiPackage:
                let package = try AnkiPackage.read(path: path, options: options)
                bundle.decks += package.decks
                bundle.media += package.media
                bundle.skipped += package.skipped
            }
        }
        return bundle
    }
}
