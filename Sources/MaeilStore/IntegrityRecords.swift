import Foundation

/// What Maeil remembers of the collections it checked: how each file stood when a Maeil that
/// had found it sound closed it. A collection opened for writing is given SQLite's quick check
/// before its first write; at a million cards that check reads half a gigabyte, so it is left
/// out when the file and its write-ahead log are exactly as a checked Maeil left them (same
/// files, sizes and modification times: what that Maeil added since its check was SQLite's own
/// writing) and the last real check is less than a day old. Anything else that touched them
/// changes a modification time, and a day later the file is checked anyway.
package struct IntegrityRecords: Sendable {
    /// One small file per collection in this folder (the user's state folder).
    package let folder: String
    /// The time the records are read against.
    package let now: Date
    static let trustedFor: TimeInterval = 86_400

    package init(folder: String, now: Date) {
        self.folder = folder
        self.now = now
    }

    struct Entry: Codable, Equatable {
        var path: String
        var file: FileIdentity
        /// The write-ahead log; nil when there is none.
        var log: FileIdentity?
        /// When SQLite's quick check last found the file sound.
        var checked: Date
    }

    /// When the file was last found sound, if it is as a checked Maeil left it since and that
    /// was less than a day ago; nil when it has to be checked. Asked before SQLite opens the
    /// file: opening it can write to its log.
    func lastCheck(of path: String) -> Date? {
        guard let data = FileManager.default.contents(atPath: recordPath(path)),
              let entry = try? JSONDecoder().decode(Entry.self, from: data),
              entry.path == Self.absolute(path), FileIdentity(path) == entry.file, FileIdentity(path + "-wal") == entry.log,
              entry.checked <= now, now.timeIntervalSince(entry.checked) < Self.trustedFor else { return nil }
        return entry.checked
    }

    /// Notes the file as it stands now, closed by a Maeil that found it sound at `checked`.
    func record(_ path: String, checked: Date) {
        guard let file = FileIdentity(path),
              let data = try? JSONEncoder().encode(Entry(path: Self.absolute(path), file: file, log: FileIdentity(path + "-wal"), checked: checked))
        else { return }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? data.write(to: URL(fileURLWithPath: recordPath(path)), options: .atomic)
    }

    func recordPath(_ path: String) -> String {
        (folder as NSString).appendingPathComponent(String(Self.fnv1a(Self.absolute(path)), radix: 16) + ".json")
    }

    static func absolute(_ path: String) -> String {
        (URL(fileURLWithPath: path).standardizedFileURL.path as NSString).resolvingSymlinksInPath
    }

    /// A hash that is the same in every process (Swift's own is seeded per process).
    static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

/// Which file this is and how it stands: device, inode, size and modification time to the
/// nanosecond.
struct FileIdentity: Codable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
    }
}
