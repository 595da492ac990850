import Foundation

/// Reads any supported file into decks: picks the format from the file itself.
package enum DeckReader {
    package enum Format: String, Sendable {
        case maeil, ankiText = "anki-text", delimited = "csv", ankiPackage = "anki-package", ankiCollection = "anki-collection"
        case readingPlan = "reading-plan"
    }

    /// Which format a path holds, from its extension and its first bytes.
    package static func format(of path: String) throws -> Format {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportProblem(file: path, message: "no such file or folder")
        }
        if isDirectory.boolValue {
            if FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(MaeilDeckFormat.manifestName)) { return .maeil }
            if FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(ReadingPlanFormat.manifestName)) { return .readingPlan }
            throw ImportProblem(file: path, message: "this folder has no \(MaeilDeckFormat.manifestName), so it is not a Maeil deck")
        }
        let lowered = path.lowercased()
        if (path as NSString).lastPathComponent == ReadingPlanFormat.manifestName { return .readingPlan }
        if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") { return .maeil }
        if lowered.hasSuffix(".apkg") || lowered.hasSuffix(".colpkg") { return .ankiPackage }
        let head = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 4096)) ?? Data()
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .ankiPackage }
        if AnkiPackage.isCollectionFile(path, head: head) { return .ankiCollection }
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        if AnkiTextFormat.hasHeaderLines(text) || lowered.hasSuffix(".txt") { return .ankiText }
        if lowered.hasSuffix(".csv") || lowered.hasSuffix(".tsv") { return .delimited }
        let notADeck = "this is not a deck: Maeil reads deck.yaml folders, Anki text (.txt), CSV/TSV, .apkg/.colpkg and Anki's collection.anki2"
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
    package static func read(_ paths: [String], options: ImportOptions) throws -> ImportBundle {
        var bundle = ImportBundle()
        try stream(paths, options: options) { bundle.take($0) }
        return bundle
    }

    /// Reads every path like `read`, handing decks and notes on as they are read. Anki text
    /// files and packages, the large ones, come in chunks; the others whole.
    package static func stream(_ paths: [String], options: ImportOptions, emit: ImportEmitter) throws {
        var decksBefore = 0
        for path in paths {
            let format = try format(of: path)
            var decksHere = 0
            // Each file counts its decks from 0; the events count them across files.
            func forward(_ event: ImportEvent) throws {
                switch event {
                case .deck:
                    decksHere += 1
                    try emit(event)
                case .templates(let deck, let templates): try emit(.templates(deck: decksBefore + deck, templates))
                case .notes(let deck, let notes): try emit(.notes(deck: decksBefore + deck, notes))
                case .expecting, .skipped, .media, .noteTypes, .readingPlan, .limitRules, .ankiConfig, .goneCards: try emit(event)
                }
            }
            /// A format read whole, handed on as one deck.
            func forwardWhole(_ read: (deck: ImportedDeck, skipped: [ImportProblem])) throws {
                var bundle = ImportBundle()
                bundle.decks = [read.deck]
                bundle.skipped = read.skipped
                try bundle.emit(into: forward)
            }
            switch format {
            case .maeil:
                try forwardWhole(MaeilDeckFormat.read(path: path, options: options))
            case .ankiText:
                try AnkiTextFormat.stream(path: path, options: options, emit: forward)
            case .delimited:
                try forwardWhole(DelimitedFormat.read(path: path, options: options))
            case .ankiPackage:
                try AnkiPackage.stream(path: path, options: options, emit: forward)
            case .ankiCollection:
                try AnkiPackage.streamCollectionFile(path: path, options: options, emit: forward)
            case .readingPlan:
                try forward(.readingPlan(ReadingPlanFormat.read(path: path, options: options)))
            }
            decksBefore += decksHere
        }
    }
}
