import Foundation

/// What the server says of its copy of the collection before a sync (`meta`).
package struct ServerMeta: Sendable, Equatable {
    /// When the server's collection last changed, in milliseconds.
    package var modified: Int64
    /// The schema time: a different one on each side means only a full sync will do.
    package var schema: Int64
    package var usn: Int
    /// The server's clock, in seconds.
    package var serverTime: Int64
    /// Whether the server holds no cards.
    package var empty: Bool
    /// False when the server will not sync (an account problem); `message` says why.
    package var proceed: Bool
    package var message: String

    package init(modified: Int64, schema: Int64, usn: Int, serverTime: Int64, empty: Bool, proceed: Bool = true, message: String = "") {
        (self.modified, self.schema, self.usn, self.serverTime, self.empty, self.proceed, self.message)
            = (modified, schema, usn, serverTime, empty, proceed, message)
    }
}

/// The calls of Anki's sync protocol a full sync uses, over one connection.
package struct SyncServer: Sendable {
    package var connection: SyncConnection

    package init(_ connection: SyncConnection) { self.connection = connection }

    /// Exchanges a user name and password for the key later calls carry; the password goes no further.
    package static func logIn(endpoint: URL, user: String, password: String) throws -> String {
        let answer = try SyncConnection(endpoint: endpoint).call("hostKey", ["u": user, "p": password])
        guard let key = (answer as? [String: Any])?["key"] as? String, !key.isEmpty else {
            throw SyncError(.server, "the sync server at \(endpoint.absoluteString) gave no key for the login")
        }
        return key
    }

    package func meta() throws -> ServerMeta {
        let answer = try connection.call("meta", ["v": 11, "cv": SyncConnection.longVersion])
        guard let object = answer as? [String: Any], let modified = Self.int(object["mod"]), let schema = Self.int(object["scm"]),
              let usn = Self.int(object["usn"]), let time = Self.int(object["ts"]) else {
            throw SyncError(.server, "the sync server's description of its collection is not Anki's")
        }
        return ServerMeta(modified: modified, schema: schema, usn: Int(usn), serverTime: time, empty: object["empty"] as? Bool ?? false,
                          proceed: object["cont"] as? Bool ?? true, message: object["msg"] as? String ?? "")
    }

    /// Replaces the server's collection with the SQLite file at `file`, prepared for it.
    package func upload(_ file: URL) throws {
        let answer = try connection.post("upload", bodyFile: file)
        let said = String(decoding: answer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard said == "OK" || said == "\"OK\"" else {
            throw SyncError(.server, "the sync server did not take the upload: \(said.prefix(200))")
        }
    }

    /// The server's collection, a SQLite file, written to `file`.
    package func download(to file: URL) throws {
        _ = try connection.post("download", body: Data("{}".utf8), answer: file)
    }

    /// Whether anything in the server's copy changed since the server's usn was `usn`, or its
    /// collection config differs from `config` (the one the last sync left; config has no usn):
    /// a normal sync is started and its deletions, note types, decks, options, tags and rows are
    /// read, sending nothing, then it is aborted, so the server changes nothing. The server's
    /// time moves without any change (a full download elsewhere bumps it); this tells the two apart.
    package func changedSince(usn: Int, config: [String: Any]?) throws -> Bool {
        defer { abort() }
        if try !start(minUsn: usn, localIsNewer: false).isEmpty { return true }
        let changes = try applyChanges(SyncObjects())
        if !changes.models.isEmpty || !changes.tags.isEmpty || !changes.decks.isEmpty || !changes.deckConfigs.isEmpty { return true }
        // Anki's own bookkeeping is no change: the day it last unburied, which a server or phone
        // sets when it opens the collection on a new day.
        func settings(_ config: [String: Any]) -> String { SyncMerge.normalized(config.filter { $0.key != "lastUnburied" }) }
        if let theirs = changes.config, let config, settings(theirs) != settings(config) { return true }
        while true {
            let chunk = try chunk().glance()
            if chunk.rows > 0 { return true }
            if chunk.done { return false }
        }
    }

    /// The server's collection config and creation time as they stand, read the way
    /// `changedSince` reads: a normal sync started with the server the newer side, its changes
    /// asked for with none sent, then aborted, so the server changes nothing.
    package func configAsItStands(usn: Int) throws -> (config: [String: Any], created: Int64)? {
        defer { abort() }
        _ = try start(minUsn: usn, localIsNewer: false)
        let changes = try applyChanges(SyncObjects())
        guard let config = changes.config, let created = changes.created else { return nil }
        return (config, created)
    }

    /// Tells the server a sync stopped half-way; it forgets what it was given.
    package func abort() {
        _ = try? connection.call("abort")
    }

    static func int(_ value: Any?) -> Int64? {
        (value as? NSNumber)?.int64Value
    }
}
