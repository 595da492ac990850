import Foundation
import MaeilStore
import MaeilSync

/// Pictures and sounds both ways, as Anki's media sync does: what the server changed since the
/// last media sync comes down (a file changed on both sides takes the server's copy; one
/// deleted there goes here unless it changed here), then what changed here goes up, and the
/// two sides compare how many files they hold.
package struct MediaSync {
    package let collection: Collection
    package let server: SyncServer
    package let folder: MediaFolder

    package init(collection: Collection, server: SyncServer) {
        self.collection = collection
        self.server = server
        folder = MediaFolder(URL(fileURLWithPath: collection.path).deletingLastPathComponent().appendingPathComponent("media"))
    }

    package struct Summary: Codable, Sendable, Equatable {
        package var downloaded = 0
        package var uploaded = 0
        package var deletedHere = 0
        package var deletedThere = 0
        /// False when the server counts another number of files than this side.
        package var inAgreement = true
    }

    package func run() throws -> Summary {
        var summary = Summary()
        var (files, usn) = try collection.mediaState()
        try noteLocalChanges(&files)
        // The server's changes since the last media sync, a page at a time.
        let serverUSN = try server.mediaBegin()
        while usn != serverUSN {
            let changes = try server.mediaChanges(after: usn)
            guard let last = changes.last else { break }
            var toFetch: [String] = []
            var recorded: [String: MediaFileState?] = [:]
            for change in changes {
                let here = files[change.name]
                guard let sha1 = change.sha1 else {
                    // Deleted there: deleted here too, unless it changed here since.
                    if here?.pending != true, here != nil {
                        folder.delete(change.name)
                        (files[change.name], recorded[change.name]) = (nil, .some(nil))
                        summary.deletedHere += 1
                    }
                    continue
                }
                if here?.sha1 == sha1 {
                    files[change.name]?.pending = false
                    recorded[change.name] = files[change.name]
                } else {
                    toFetch.append(change.name)
                }
            }
            for start in stride(from: 0, to: toFetch.count, by: SyncServer.mediaBatchFiles) {
                let batch = Array(toFetch[start..<min(start + SyncServer.mediaBatchFiles, toFetch.count)])
                for (name, data) in try server.downloadMedia(batch) where batch.contains(name) {
                    let seen = try folder.write(data, as: name)
                    let state = MediaFileState(sha1: MediaFolder.sha1(data), mtime: seen.mtime, size: seen.size, pending: false)
                    (files[name], recorded[name]) = (state, state)
                    summary.downloaded += 1
                }
            }
            usn = last.usn
            try collection.saveMediaState(recorded, usn: usn)
        }
        // What changed here goes up, a zip of at most 25 files (about 2.5 MB) at a time.
        var pending = files.filter(\.value.pending).keys.sorted()
        while !pending.isEmpty {
            var batch: [(name: String, data: Data?)] = []
            var bytes = 0
            while let name = pending.first, batch.count < SyncServer.mediaBatchFiles, bytes < SyncServer.mediaBatchBytes {
                pending.removeFirst()
                let data = files[name]?.sha1.isEmpty == false ? try? folder.read(name) : nil
                bytes += data?.count ?? 0
                batch.append((name, data))
            }
            let (processed, newUSN) = try server.uploadMedia(batch)
            var recorded: [String: MediaFileState?] = [:]
            for (name, data) in batch.prefix(processed) {
                if data == nil {
                    (files[name], recorded[name]) = (nil, .some(nil))
                    summary.deletedThere += 1
                } else {
                    files[name]?.pending = false
                    recorded[name] = files[name]
                    summary.uploaded += 1
                }
            }
            usn = newUSN
            try collection.saveMediaState(recorded, usn: usn)
            if processed < batch.count { pending = batch.dropFirst(processed).map(\.name) + pending }
            if processed == 0 { throw SyncError(.server, "the sync server took none of the media sent") }
        }
        summary.inAgreement = try server.mediaSanity(localCount: files.values.filter { !$0.sha1.isEmpty }.count)
        return summary
    }

    /// Compares the folder with what the last sync left: a new or changed file (by its SHA-1,
    /// read only when its time or size moved) and a file gone are changes to send.
    func noteLocalChanges(_ files: inout [String: MediaFileState]) throws {
        let seen = try folder.scan()
        var recorded: [String: MediaFileState?] = [:]
        for (name, now) in seen {
            if let known = files[name], known.mtime == now.mtime, known.size == now.size, !known.sha1.isEmpty { continue }
            let sha1 = try folder.sha1(of: name)
            let changed = files[name]?.sha1 != sha1
            let state = MediaFileState(sha1: sha1, mtime: now.mtime, size: now.size, pending: changed || files[name]?.pending == true)
            (files[name], recorded[name]) = (state, state)
        }
        for (name, known) in files where seen[name] == nil && !known.sha1.isEmpty {
            let state = MediaFileState(sha1: "", mtime: 0, size: 0, pending: true)
            (files[name], recorded[name]) = (state, state)
        }
        if !recorded.isEmpty { try collection.saveMediaState(recorded) }
    }
}
