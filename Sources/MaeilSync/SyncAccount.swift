import Foundation

/// A login to a sync server: its address, the user's name and the key the server gave for
/// them. Kept in the user's state folder, readable by the user alone; the password is never kept.
package struct SyncAccount: Codable, Sendable, Equatable {
    package var endpoint: String
    package var user: String
    package var hostKey: String

    package init(endpoint: String, user: String, hostKey: String) {
        (self.endpoint, self.user, self.hostKey) = (endpoint, user, hostKey)
    }

    package static func file(stateHome: String) -> URL {
        URL(fileURLWithPath: stateHome).appendingPathComponent("maeil").appendingPathComponent("sync-login.json")
    }

    package static func load(stateHome: String) throws -> SyncAccount? {
        let url = file(stateHome: stateHome)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(SyncAccount.self, from: Data(contentsOf: url))
    }

    /// Written to a file made with mode 0600 and renamed into place, so the key is never
    /// readable by others, not even for a moment.
    package func save(stateHome: String) throws {
        let url = Self.file(stateHome: stateHome)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let partial = url.path + ".\(getpid()).partial"
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: partial]) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: try JSONEncoder().encode(self))
        try handle.synchronize()
        try handle.close()
        guard rename(partial, url.path) == 0 else {
            unlink(partial)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    package static func forget(stateHome: String) throws {
        let url = file(stateHome: stateHome)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }
}
