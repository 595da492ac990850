import Foundation
import GRDB
import MaeilCore

/// Anki packages: .apkg (decks) and .colpkg (a whole collection), legacy and current.
///
/// - Legacy: `collection.anki2` or `collection.anki21`, plain SQLite (schema 11) with note
///   types, decks and options as JSON in the `col` table; `media` maps "0", "1"… to names.
/// - Current: `collection.anki21b`, zstd-compressed SQLite (schema 18) with note types and
///   templates in their own tables as protobuf; media zstd-compressed, named by a protobuf list.
///   Such packages also hold a dummy `collection.anki2` that must be ignored.
///
/// Nothing is extracted by its entry path: only the known entries are read, into memory (by
/// `ZipReader`), and the total unpacked size is capped. Media names are checked to be plain
/// file names.
package enum AnkiPackage {
    package struct Contents: Sendable {
        package var decks: [ImportedDeck] = []
        package var media: [MediaFile] = []
        package var skipped: [ImportProblem] = []
    }

    /// The most bytes of a card's custom data kept: ten times what Anki itself lets a card hold,
    /// so a package from an older Anki keeps what it had, and a hostile one cannot grow a card.
    static let customDataLimit = 1_000

    /// The first bytes of every SQLite database file.
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    package enum Version: Int, Sendable {
        case legacy1 = 1, legacy2 = 2, latest = 3
    }

    package static func read(path: String, options: ImportOptions) throws -> Contents {
        var bundle = ImportBundle()
        try stream(path: path, options: options) { bundle.take($0) }
        return Contents(decks: bundle.decks, media: bundle.media, skipped: bundle.skipped)
    }

    /// Reads a package and hands its decks, notes and media on as it goes.
    package static func stream(path: String, options: ImportOptions, emit: ImportEmitter) throws {
        let file = (path as NSString).lastPathComponent
        let zip: ZipReader
        do {
            zip = try ZipReader(data: InputFile.readData(path, options: options))
        } catch let problem as ImportProblem {
            throw problem
        } catch {
            throw ImportProblem(file: file, message: "not a readable zip archive (\(error)), so not an Anki package")
        }
        var entries: [String: ZipReader.Entry] = [:]
        for entry in zip.entries {
            let name = entry.name
            if name.hasPrefix("/") || name.split(separator: "/").contains("..") || name.contains("\\") {
                throw ImportProblem(file: file, entry: name, message: "an entry's path would escape its folder; refusing the package")
            }
            entries[name] = entry
        }
        var budget = UnpackBudget(limit: options.maximumUnpackedBytes, entryLimit: options.maximumEntryBytes, file: file, zip: zip)
        let version = try packageVersion(entries, &budget, file: file)
        let collectionEntry: String
        switch version {
        case .latest: collectionEntry = "collection.anki21b"
        case .legacy2: collectionEntry = "collection.anki21"
        case .legacy1: collectionEntry = "collection.anki2"
        }
        guard let entry = entries[collectionEntry] else {
            throw ImportProblem(file: file, message: "no \(collectionEntry) inside, so this is not an Anki package")
        }
        // Unpacked into a file of its own, which SQLite reads a page at a time: a collection of a
        // million cards is half a gigabyte, never held in memory whole.
        let scratch = try ScratchCollection()
        defer { scratch.remove() }
        if version == .latest {
            try budget.zstd(try budget.extract(entry), entry: collectionEntry, to: scratch.url)
        } else {
            try budget.extract(entry, to: scratch.url)
        }
        guard try scratch.isSQLite() else {
            throw ImportProblem(file: file, entry: collectionEntry, message: "the collection inside is not an SQLite database")
        }
        let mediaList = try mediaList(entries, version: version, budget: &budget, file: file)
        let media = MediaNames(mediaList.map(\.name))
        try readCollection(scratch, version: version, file: file, options: options, media: media, emit: emit)
        try readMedia(mediaList, media, entries, version: version, budget: &budget, file: file, emit: emit)
    }

    static func packageVersion(_ entries: [String: ZipReader.Entry], _ budget: inout UnpackBudget, file: String) throws -> Version {
        guard let meta = entries["meta"] else {
            return entries["collection.anki21"] != nil ? .legacy2 : .legacy1
        }
        let data = try budget.extract(meta)
        guard let raw = try? ProtobufReader.varint(data, field: 1), let version = Version(rawValue: Int(raw)) else {
            throw ImportProblem(file: file, entry: "meta", message: "unknown Anki package version; export it again from Anki, or update Maeil")
        }
        return version
    }

    // MARK: Media

    /// A media name must be a plain file name: no folders, no "..", nothing hidden or empty,
    /// and nothing a terminal or a file manager would act on (control or direction characters).
    package static func isSafeMediaName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && !name.contains("/") && !name.contains("\\") && !name.contains("\0")
            && name != "." && name != ".." && !name.hasPrefix(".") && !name.unicodeScalars.contains(where: TerminalText.isUnsafe)
    }

    /// Hands the media on one file at a time, so a package's pictures and sound are never all
    /// in memory at once.
    /// The package's media list: each file's entry in the zip and its name.
    static func mediaList(_ entries: [String: ZipReader.Entry], version: Version, budget: inout UnpackBudget,
                          file: String) throws -> [(entry: String, name: String)] {
        guard let mapEntry = entries["media"] else { return [] }
        var raw = try budget.extract(mapEntry)
        var names: [(entry: String, name: String)] = []
        if version == .latest {
            raw = try budget.zstd(raw, entry: "media")
            let list: [Data]
            do { list = try ProtobufReader.messages(raw, field: 1) } catch {
                throw ImportProblem(file: file, entry: "media", message: "the media list is corrupt")
            }
            for (index, item) in list.enumerated() {
                let name = (try? ProtobufReader.string(item, field: 1)) ?? nil
                names.append(("\(index)", name ?? ""))
            }
        } else {
            guard let object = try? JSONSerialization.jsonObject(with: raw) as? [String: String] else {
                throw ImportProblem(file: file, entry: "media", message: "the media list is not valid JSON")
            }
            names = object.map { ($0.key, $0.value) }.sorted { (Int($0.entry) ?? 0) < (Int($1.entry) ?? 0) }
        }
        for (entryName, name) in names where !isSafeMediaName(name.nfc) {
            throw ImportProblem(file: file, entry: entryName,
                                message: "the media name '\(TerminalText.visible(name))' is not a plain file name; refusing the package")
        }
        return names
    }

    static func readMedia(_ names: [(entry: String, name: String)], _ media: MediaNames, _ entries: [String: ZipReader.Entry], version: Version,
                          budget: inout UnpackBudget, file: String, emit: ImportEmitter) throws {
        for (entryName, name) in names {
            guard let entry = entries[entryName] else { continue }
            var data = try budget.extract(entry)
            if version == .latest, data.starts(with: Zstd.magic) { data = try budget.zstd(data, entry: entryName) }
            try emit(.media([MediaFile(name: media.name(for: name), data: data)]))
        }
    }
}

/// Counts every byte unpacked from one package, across entries and zstd frames, and stops
/// at the limit: a zip bomb fails with a message instead of filling the disk or memory.
struct UnpackBudget {
    /// Most bytes the whole package may unpack to, and one entry.
    let limit: Int64
    let entryLimit: Int64
    let file: String
    let zip: ZipReader
    var used: Int64 = 0

    init(limit: Int64, entryLimit: Int64, file: String, zip: ZipReader) {
        self.limit = limit
        self.entryLimit = entryLimit
        self.file = file
        self.zip = zip
    }

    /// What this entry may still take: its own limit, or what is left of the package's.
    private var available: Int64 { min(entryLimit, limit - used) }

    private func tooLarge(_ entry: String) -> ImportProblem {
        let which = entryLimit < limit - used ? "one entry may unpack to \(entryLimit >> 20) MB" : "the package may unpack to \(limit >> 20) MB"
        return ImportProblem(file: file, entry: entry,
                             message: "unpacks to more than allowed (\(which)); refusing it. If the package is genuine, "
                                 + "`maeil import --max-unpacked MB` raises the limit")
    }

    mutating func extract(_ entry: ZipReader.Entry) throws -> Data {
        let data = try unpacking(entry) { try zip.extract(entry, limit: $0) }
        used += Int64(data.count)
        return data
    }

    /// The same, written into a new file at `url` a piece at a time.
    mutating func extract(_ entry: ZipReader.Entry, to url: URL) throws {
        used += try unpacking(entry) { try zip.extract(entry, limit: $0, to: url) }
    }

    /// `body` given the most the entry may unpack to, its failures said as a person can act on them.
    private func unpacking<T>(_ entry: ZipReader.Entry, _ body: (Int64) throws -> T) throws -> T {
        do {
            return try body(available)
        } catch ZipReader.Failure.tooLarge {
            throw tooLarge(entry.name)
        } catch ZipReader.Failure.expandsTooMuch(let ratio) {
            throw ImportProblem(file: file, entry: entry.name,
                                message: "expands to more than \(ratio) times its packed size, as a zip bomb does; refusing the package")
        } catch {
            throw ImportProblem(file: file, entry: entry.name, message: "this entry is corrupt (\(error))")
        }
    }

    mutating func zstd(_ data: Data, entry: String) throws -> Data {
        var output = Data()
        try zstd(data, entry: entry) { limit in
            output = try Zstd.decompress(data, limit: limit)
            return Int64(output.count)
        }
        return output
    }

    /// The same, written into a new file at `url`.
    mutating func zstd(_ data: Data, entry: String, to url: URL) throws {
        try zstd(data, entry: entry) { limit in try Zstd.decompress(data, to: url, limit: limit) }
    }

    /// `decompress` given the most it may unpack to, returning how much it did.
    private mutating func zstd(_ data: Data, entry: String, _ decompress: (Int64) throws -> Int64) throws {
        do {
            let bomb = max(Int64(1 << 20), Int64(data.count) * Int64(ZipReader.maximumRatio))
            used += try decompress(min(available, bomb))
        } catch is Zstd.TooLarge {
            if Int64(data.count) * Int64(ZipReader.maximumRatio) < available {
                throw ImportProblem(file: file, entry: entry,
                                    message: "expands to more than \(ZipReader.maximumRatio) times its packed size, as a zip bomb does; refusing the package")
            }
            throw tooLarge(entry)
        } catch {
            throw ImportProblem(file: file, entry: entry, message: "\(error)")
        }
    }
}
