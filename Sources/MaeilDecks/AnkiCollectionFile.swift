import Foundation
import MaeilCore
import MaeilPrograms

/// An Anki collection file itself (collection.anki2 from Anki's profile folder), with the
/// pictures and sounds of its `collection.media` folder beside it. Read as bytes, never opened
/// by SQLite in place: Anki's file is not Maeil's to touch.
extension AnkiPackage {
    /// Whether `head` (a file's first bytes) is an SQLite database whose name says Anki's.
    static func isCollectionFile(_ path: String, head: Data) -> Bool {
        head.starts(with: sqliteHeader) && ["anki2", "anki21"].contains((path as NSString).pathExtension.lowercased())
    }

    static func streamCollectionFile(path: String, options: ImportOptions, emit: ImportEmitter) throws {
        let file = (path as NSString).lastPathComponent
        // Changes Anki has not yet moved from its write-ahead log into the file would be missed.
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int ?? 0
        guard wal == 0 else {
            throw ImportProblem(file: file, message: "Anki has this collection open, or was stopped before it saved it whole; "
                                + "close Anki (or export a .colpkg from it) and import again")
        }
        let media = URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("media")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: media.path)) ?? []).sorted()
        let mediaNames = MediaNames(names.filter { isSafeMediaName($0.nfc) })
        // A copy is read: SQLite opening Anki's own file could change it (a journal, a log).
        // Not a working copy of the caller's own (a sync's merge), which is one already.
        _ = try InputFile.size(path, options: options)
        let scratch = options.ownWorkingCopy ? ScratchCollection(workingCopy: URL(fileURLWithPath: path)) : try ScratchCollection()
        defer { scratch.remove() }
        do {
            if !options.ownWorkingCopy { try FileCopy.copy(URL(fileURLWithPath: path), to: scratch.url) }
        } catch {
            throw ImportProblem(file: file, message: "cannot read the file (\(error.localizedDescription))")
        }
        try readCollection(scratch, version: .latest, file: file, options: options, media: mediaNames, emit: emit)
        var used: Int64 = 0
        for name in names where isSafeMediaName(name.nfc) {
            let url = media.appendingPathComponent(name)
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
            guard values?.isRegularFile == true, let size = values?.fileSize else { continue }
            used += Int64(size)
            guard Int64(size) <= options.maximumEntryBytes, used <= options.maximumUnpackedBytes else {
                throw ImportProblem(file: file, entry: name, message: "the media folder holds more than allowed (one file may be "
                                    + "\(options.maximumEntryBytes >> 20) MB, all of them \(options.maximumUnpackedBytes >> 20) MB); "
                                    + "`maeil import --max-unpacked MB` raises the limit")
            }
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            try emit(.media([MediaFile(name: mediaNames.name(for: name), data: data)]))
        }
    }
}
