import Foundation
import MaeilCore
import MaeilDecks
import MaeilPrograms
import MaeilStore

/// An import's pictures and sound, written beside the collection's media folder while the
/// notes are written, and moved in as the last step before they are committed: a note is
/// never visible before what it points at is in place (a kill between the two leaves only
/// files no note uses yet). A file never replaces one already there: the same bytes share the
/// file, other bytes get a name of their own (as Anki does), and the notes of this import are
/// pointed at it. The staging folder carries its process's id, so that the next import can
/// remove what a killed one left.
final class MediaStaging {
    let mediaDirectory: URL
    let folder: URL
    private var created = false
    /// Names in the package → the names they were staged under, where those differ.
    private(set) var renamed: [String: String] = [:]
    /// Names already staged, for the rare package that holds one twice.
    private var staged = Set<String>()

    static let prefix = ".media-import-"

    init(mediaDirectory: URL) {
        self.mediaDirectory = mediaDirectory
        let parent = mediaDirectory.deletingLastPathComponent()
        folder = parent.appendingPathComponent(Leftovers.name(Self.prefix))
        // Staging folders of imports whose process is gone: their notes were never committed,
        // or were and their files moved in already.
        Leftovers.removeDead(in: parent, prefix: Self.prefix)
    }

    func stage(_ files: [MediaFile]) throws {
        if !created {
            try MediaWriteError.wrap("the media folder") {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            created = true
        }
        for file in files {
            guard let name = try name(for: file) else { continue }
            try MediaWriteError.wrap(name) { try file.data.write(to: folder.appendingPathComponent(name)) }
            staged.insert(name)
        }
    }

    /// The name to stage a file under, or nil when the media folder has these very bytes.
    private func name(for file: MediaFile) throws -> String? {
        let existing = mediaDirectory.appendingPathComponent(file.name)
        guard FileManager.default.fileExists(atPath: existing.path) || staged.contains(file.name) else { return file.name }
        if FileManager.default.contents(atPath: existing.path) == file.data { return nil }
        let stem = (file.name as NSString).deletingPathExtension, ext = (file.name as NSString).pathExtension
        let unique = stem + "-" + String(StableHash.hex(file.data).prefix(8))
            + (ext.isEmpty ? "" : "." + ext)
        let target = mediaDirectory.appendingPathComponent(unique)
        renamed[file.name] = unique
        if FileManager.default.contents(atPath: target.path) == file.data { return nil }
        return unique
    }

    /// Moves the staged files into the media folder (inside the notes' transaction, last).
    func moveIn() throws {
        guard created else { return }
        try MediaWriteError.wrap("the media folder") {
            try FileManager.default.createDirectory(at: mediaDirectory, withIntermediateDirectories: true)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let target = mediaDirectory.appendingPathComponent(name)
            // Checked again: another import may have put a file of this name there meanwhile.
            guard !FileManager.default.fileExists(atPath: target.path) else { continue }
            try MediaWriteError.wrap(name) { try FileManager.default.moveItem(at: folder.appendingPathComponent(name), to: target) }
        }
    }

    func discard() {
        if created { try? FileManager.default.removeItem(at: folder) }
    }
}

/// The import's notes pointed at media names that changed while staging.
enum MediaReferences {
    static func rewrite(_ renamed: [String: String], inNotes guids: Set<String>, decks: [Int64], writer: CollectionWriter) throws {
        for (old, new) in renamed {
            for var note in try writer.notes(containing: old, deckIDs: decks) where guids.contains(note.guid) {
                var changed = false
                for index in note.fields.indices {
                    let value = MediaNames.rewritten(note.fields[index].value, old, new)
                    if value != note.fields[index].value {
                        note.fields[index].value = value
                        changed = true
                    }
                }
                if changed { try writer.updateNote(note) }
            }
        }
    }

}

/// A media file that could not be written, in one sentence (the disk full, most often).
struct MediaWriteError: Error, CustomStringConvertible {
    let description: String

    static func wrap(_ what: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as NSError {
            // On Linux the POSIX cause arrives as a Swift error inside the Cocoa one.
            let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { ($0 as NSError).code } ?? error.code
            let full = [ENOSPC, EFBIG, EDQUOT].map(Int.init).contains(underlying) || error.code == NSFileWriteOutOfSpaceError
            let reason = full ? "the disk is full (or a size limit was reached)"
                : underlying == Int(EACCES) || error.code == NSFileWriteNoPermissionError ? "permission denied"
                : "it could not be written"
            throw MediaWriteError(description: "nothing was imported: \(TerminalText.visible(what)): \(reason)")
        }
    }
}
