import Foundation
import MaeilDecks
import MaeilPrograms

/// The collection's media folder, as a media sync reads and writes it: plain files with safe
/// names only (what is hidden, a folder or a link is not media), written whole or not at all.
package struct MediaFolder: Sendable {
    package let url: URL

    package init(_ url: URL) { self.url = url }

    package struct Seen: Sendable, Equatable {
        package let mtime: Int64
        package let size: Int64
    }

    /// Every media file's modification time and size, by name (NFC).
    package func scan() throws -> [String: Seen] {
        Leftovers.removeDead(in: url, prefix: ".maeil-media-")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return [:] }
        var seen: [String: Seen] = [:]
        for name in names {
            let normal = name.precomposedStringWithCanonicalMapping
            guard AnkiPackage.isSafeMediaName(normal), normal == name else { continue }
            var status = stat()
            guard lstat(url.appendingPathComponent(name).path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { continue }
            seen[name] = Seen(mtime: Int64(status.st_mtim.tv_sec), size: Int64(status.st_size))
        }
        return seen
    }

    package func sha1(of name: String) throws -> String {
        SHA1.hex(try Data(contentsOf: url.appendingPathComponent(name)))
    }

    package static func sha1(_ data: Data) -> String {
        SHA1.hex(data)
    }

    package func read(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }

    /// Written beside, then renamed over: a killed sync leaves the old file or the new one.
    package func write(_ data: Data, as name: String) throws -> Seen {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let partial = url.appendingPathComponent(Leftovers.name(".maeil-media-"))
        try data.write(to: partial)
        guard rename(partial.path, url.appendingPathComponent(name).path) == 0 else {
            try? FileManager.default.removeItem(at: partial)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.appendingPathComponent(name).path])
        }
        return try scanOne(name) ?? Seen(mtime: 0, size: Int64(data.count))
    }

    package func delete(_ name: String) {
        try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
    }

    func scanOne(_ name: String) throws -> Seen? {
        var status = stat()
        guard lstat(url.appendingPathComponent(name).path, &status) == 0 else { return nil }
        return Seen(mtime: Int64(status.st_mtim.tv_sec), size: Int64(status.st_size))
    }
}
