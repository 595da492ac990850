import Foundation

/// Deletions as the protocol carries them: ids of cards, notes and decks.
package struct SyncGraves: Sendable, Equatable {
    package var cards: [Int64] = []
    package var notes: [Int64] = []
    package var decks: [Int64] = []

    package init(cards: [Int64] = [], notes: [Int64] = [], decks: [Int64] = []) {
        (self.cards, self.notes, self.decks) = (cards, notes, decks)
    }

    package var isEmpty: Bool { cards.isEmpty && notes.isEmpty && decks.isEmpty }

    init(_ object: Any?) {
        let object = object as? [String: Any] ?? [:]
        func ids(_ key: String) -> [Int64] { (object[key] as? [Any] ?? []).compactMap { SyncServer.int($0) } }
        (cards, notes, decks) = (ids("cards"), ids("notes"), ids("decks"))
    }

    var json: [String: Any] { ["cards": cards, "notes": notes, "decks": decks] }
}

/// Note types, decks, deck options and tags, as Anki's legacy JSON objects (`applyChanges`).
package struct SyncObjects: @unchecked Sendable {
    package var models: [[String: Any]] = []
    package var decks: [[String: Any]] = []
    package var deckConfigs: [[String: Any]] = []
    package var tags: [String] = []
    /// The collection's own settings and creation time (seconds), sent by the side that is
    /// taken to be newer.
    package var config: [String: Any]?
    package var created: Int64?

    package init(models: [[String: Any]] = [], decks: [[String: Any]] = [], deckConfigs: [[String: Any]] = [], tags: [String] = []) {
        (self.models, self.decks, self.deckConfigs, self.tags) = (models, decks, deckConfigs, tags)
    }

    init(_ object: Any?) {
        let object = object as? [String: Any] ?? [:]
        models = object["models"] as? [[String: Any]] ?? []
        let both = object["decks"] as? [Any] ?? []
        decks = both.first as? [[String: Any]] ?? []
        deckConfigs = both.count > 1 ? both[1] as? [[String: Any]] ?? [] : []
        tags = object["tags"] as? [String] ?? []
        config = object["conf"] as? [String: Any]
        created = SyncServer.int(object["crt"])
    }

    var json: [String: Any] {
        var json: [String: Any] = ["models": models, "decks": [decks, deckConfigs], "tags": tags]
        if let config { json["conf"] = config }
        if let created { json["crt"] = created }
        return json
    }
}

/// Rows of one chunk that came down (review-log, card and note rows as the arrays Anki sends),
/// as the server wrote them: SQLite reads them where they are merged (`SyncMerge.apply`).
/// Read into Foundation's objects first, a chunk of 125 cards took longer to decode and cast
/// value by value than to merge.
package struct SyncChunk: Sendable {
    package let json: String

    package init(json: String) { self.json = json }

    /// How many rows it holds and whether it is the last, read by Foundation: for a look at
    /// what changed, not for a merge.
    func glance() throws -> (rows: Int, done: Bool) {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
        let rows = ["revlog", "cards", "notes"].reduce(0) { $0 + ((object[$1] as? [Any])?.count ?? 0) }
        return (rows, object["done"] as? Bool ?? true)
    }
}

/// Rows of one chunk going up, each already the JSON array Anki takes, as SQLite writes it
/// (Foundation's JSONSerialization took 5 ms for a chunk of 250 cards and 250 answers).
package struct OutgoingChunk: Sendable {
    package var done = false
    package var revlog: [String] = []
    package var cards: [String] = []
    package var notes: [String] = []

    package var count: Int { revlog.count + cards.count + notes.count }

    var body: Data {
        func list(_ rows: [String]) -> String { "[" + rows.joined(separator: ",") + "]" }
        return Data("{\"chunk\":{\"done\":\(done),\"revlog\":\(list(revlog)),\"cards\":\(list(cards)),\"notes\":\(list(notes))}}".utf8)
    }
}

/// The calls of a normal sync, in the order the protocol makes them: `start`, `applyGraves`,
/// `applyChanges`, `chunk` until done, `applyChunk` until done, `sanityCheck2`, `finish`.
extension SyncServer {
    /// Opens a normal sync; answers the server's deletions since `minUsn`.
    package func start(minUsn: Int, localIsNewer: Bool) throws -> SyncGraves {
        SyncGraves(try connection.call("start", ["minUsn": minUsn, "lnewer": localIsNewer, "graves": NSNull()]))
    }

    package func applyGraves(_ graves: SyncGraves) throws {
        _ = try connection.call("applyGraves", ["chunk": graves.json])
    }

    /// Sends this side's changed note types, decks, options and tags; answers the server's.
    package func applyChanges(_ changes: SyncObjects) throws -> SyncObjects {
        SyncObjects(try connection.call("applyChanges", ["changes": changes.json]))
    }

    package func chunk() throws -> SyncChunk {
        SyncChunk(json: String(decoding: try connection.post("chunk", body: Data("{}".utf8)), as: UTF8.self))
    }

    package func applyChunk(_ chunk: OutgoingChunk) throws {
        _ = try connection.call("applyChunk", json: chunk.body)
    }

    /// The counts both sides must agree on once merged: cards, notes, review-log rows,
    /// deletions (none left), note types, decks, deck options. False when they differ.
    package func sanityCheck(cards: Int, notes: Int, revlog: Int, models: Int, decks: Int, deckConfigs: Int) throws -> (ok: Bool, said: String) {
        let counts: [Any] = [[0, 0, 0], cards, notes, revlog, 0, models, decks, deckConfigs]
        let answer = try connection.call("sanityCheck2", ["client": counts])
        let object = answer as? [String: Any] ?? [:]
        let said = (try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return (object["status"] as? String == "ok", said)
    }

    /// Every note type, deck and deck options the server holds: a normal sync started from
    /// usn 0 and aborted once they came, so the server changes nothing.
    package func allObjects() throws -> SyncObjects {
        defer { abort() }
        _ = try start(minUsn: 0, localIsNewer: false)
        return try applyChanges(SyncObjects())
    }

    /// Ends the sync; answers the server's new modification time (milliseconds).
    package func finish() throws -> Int64 {
        guard let modified = Self.int(try connection.call("finish")) else {
            throw SyncError(.server, "the sync server's answer to the end of a sync is not Anki's")
        }
        return modified
    }
}
