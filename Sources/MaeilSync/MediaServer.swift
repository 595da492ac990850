import Foundation
import MaeilDecks
import ZIPFoundation

/// The media half of Anki's sync protocol (`msync/`): its own usn, files listed by name and
/// SHA-1, and zips of at most 25 files each way.
extension SyncServer {
    /// A change on the server: a file added or changed (its SHA-1), or deleted (no SHA-1).
    package struct MediaChange: Sendable, Equatable {
        package let name: String
        package let usn: Int
        package let sha1: String?
    }

    /// Most files in one zip, and about the most bytes, as Anki's client sends them.
    package static let mediaBatchFiles = 25
    package static let mediaBatchBytes = 2_621_440
    /// Largest media answer unpacked: 25 files of at most 100 MB each.
    static let mediaZipLimit: Int64 = 2_600 << 20

    package func mediaBegin() throws -> Int {
        let answer = try connection.mediaCall("begin", ["v": SyncConnection.longVersion])
        guard let usn = Self.int((answer as? [String: Any])?["usn"]) else { throw SyncError(.server, "the sync server's media answer is not Anki's") }
        return Int(usn)
    }

    /// The changes after `usn`, oldest first; empty when there are none.
    package func mediaChanges(after usn: Int) throws -> [MediaChange] {
        guard let rows = try connection.mediaCall("mediaChanges", ["lastUsn": usn]) as? [[Any]] else {
            throw SyncError(.server, "the sync server's list of media changes is not Anki's")
        }
        return rows.compactMap { row in
            guard row.count >= 3, let name = row[0] as? String, let usn = Self.int(row[1]) else { return nil }
            let sha1 = row[2] as? String
            return MediaChange(name: name, usn: Int(usn), sha1: sha1?.isEmpty == false ? sha1 : nil)
        }
    }

    /// The files named, by name: only those with a safe name and within the size limits.
    package func downloadMedia(_ names: [String]) throws -> [String: Data] {
        let zip = try connection.post("downloadFiles", body: try JSONSerialization.data(withJSONObject: ["files": names]), media: true)
        let reader = try ZipReader(data: zip)
        var entries: [String: ZipReader.Entry] = [:]
        for entry in reader.entries { entries[entry.name] = entry }
        guard let metaEntry = entries["_meta"],
              let meta = try JSONSerialization.jsonObject(with: reader.extract(metaEntry, limit: 1 << 20)) as? [String: String] else {
            throw SyncError(.server, "the sync server's media zip has no list of its files")
        }
        var files: [String: Data] = [:]
        for (entryName, name) in meta {
            let name = name.precomposedStringWithCanonicalMapping
            guard AnkiPackage.isSafeMediaName(name), let entry = entries[entryName] else { continue }
            files[name] = try reader.extract(entry, limit: 100 << 20)
        }
        return files
    }

    /// Sends files (nil data: a deletion); returns how many the server took and its usn after.
    package func uploadMedia(_ changes: [(name: String, data: Data?)]) throws -> (processed: Int, usn: Int) {
        let archive = try Archive(accessMode: .create)
        var meta: [[Any]] = []
        for (index, change) in changes.enumerated() {
            guard let data = change.data else {
                meta.append([change.name, NSNull()])
                continue
            }
            meta.append([change.name, "\(index)"])
            try archive.addEntry(with: "\(index)", type: .file, uncompressedSize: Int64(data.count), compressionMethod: .none) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        let metaData = try JSONSerialization.data(withJSONObject: meta)
        try archive.addEntry(with: "_meta", type: .file, uncompressedSize: Int64(metaData.count), compressionMethod: .none) { position, size in
            metaData.subdata(in: Int(position)..<Int(position) + size)
        }
        guard let zip = archive.data else { throw SyncError(.server, "the media zip could not be made") }
        let answer = try SyncConnection.unwrap(try connection.post("uploadChanges", body: zip, media: true))
        guard let pair = answer as? [Any], pair.count == 2, let processed = Self.int(pair[0]), let usn = Self.int(pair[1]) else {
            throw SyncError(.server, "the sync server's answer to the media sent is not Anki's")
        }
        return (Int(processed), Int(usn))
    }

    /// Whether the server counts as many files as this side does.
    package func mediaSanity(localCount: Int) throws -> Bool {
        (try connection.mediaCall("mediaSanity", ["local": localCount]) as? String) == "OK"
    }
}
