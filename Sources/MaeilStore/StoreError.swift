import Foundation
import MaeilCore
import GRDB
import Synchronization

/// Errors the store reports: what is wrong, in words about the collection. What to run about
/// it is the command line's to say; the store knows nothing of commands and flags.
package enum StoreError: Error, CustomStringConvertible, Equatable {
    case newerSchema(path: String, unknown: [String])
    case notACollection(path: String, reason: String)
    case noSuchDeck(String)
    case noSuchCard(Int64)
    case noSuchNote(Int64)
    case missingPreset(Int64)
    case missingDeck(Int64)
    case deckExists(String)
    case deckNameEmpty
    case fieldTooLarge(name: String, bytes: Int)
    case cardChanged(Int64)
    /// The options of the card's deck are no longer the ones an answer was planned under.
    case presetChanged(cardID: Int64)
    case guidTaken(String)
    /// A note moved to a deck that has none of the templates its cards were made from.
    case templatesMissing(noteID: Int64, deck: String)
    case nothingToUndo
    /// The change to undo was followed by another to the same note or card.
    case changedSince(String)
    case answeredSince(cardID: Int64)
    case nothingToRestore(logID: Int64)
    case invalidState(cardID: Int64)
    /// SQLite's check found the file damaged; nothing was written.
    case damaged(path: String, detail: String)
    /// Another process kept the collection locked for writing too long.
    case busy(path: String)
    case readOnly(path: String)
    case diskFull(path: String)
    case cannotOpen(path: String, reason: String)
    /// The file can be read but not written where it is (a read-only file system, a folder
    /// or file this user may not write).
    case readOnlyPlace(path: String, reason: String)

    package var description: String {
        switch self {
        case .newerSchema(let path, let unknown):
            "\(path) was written by a newer Maeil (schema \(unknown.joined(separator: ", ")))"
        case .notACollection(let path, let reason):
            "\(path) is not a Maeil collection (\(reason))"
        case .noSuchDeck(let name):
            "no deck named “\(name)”"
        case .noSuchCard(let id):
            "no card \(id)"
        case .noSuchNote(let id):
            "no note \(id)"
        case .missingPreset(let id):
            "preset \(id) is missing from the collection"
        case .missingDeck(let id):
            "deck \(id) is missing from the collection"
        case .deckExists(let name):
            "a deck named “\(name)” already exists"
        case .deckNameEmpty:
            "a deck needs a name"
        case .fieldTooLarge(let name, let bytes):
            "the field “\(name)” holds \(bytes >> 20) MB; a field holds at most \(NoteField.maximumBytes >> 20) MB (pictures and sounds go in files of their own); nothing was written"
        case .cardChanged(let id):
            "card \(id) changed while it was shown (another Maeil running?); it will be shown again"
        case .presetChanged(let id):
            "the options of card \(id)'s deck changed while it was shown (deck … set in another Maeil?)"
        case .guidTaken(let guid):
            "a note with the id “\(guid)” is already in the collection"
        case .templatesMissing(let noteID, let deck):
            "deck “\(deck)” has none of the templates note \(noteID)'s cards are made from; move its cards alone (card:N), which keep their note's"
        case .nothingToUndo:
            "nothing to undo"
        case .changedSince(let label):
            "cannot undo “\(label)”: what it changed has been changed again since"
        case .answeredSince(let cardID):
            "card \(cardID) was answered again since; undo that first"
        case .nothingToRestore(let logID):
            "log entry \(logID) has no earlier state to restore"
        case .damaged(let path, let detail):
            "\(path) is damaged (SQLite's check says: \(detail)); nothing was written to it"
        case .busy(let path):
            "\(path) stayed locked by another program writing to it; nothing was changed"
        case .readOnly(let path):
            "\(path) cannot be written (the file or its folder is read-only); nothing was changed"
        case .diskFull(let path):
            "the disk holding \(path) is full; nothing was changed"
        case .cannotOpen(let path, let reason):
            "cannot open \(path): \(reason)"
        case .readOnlyPlace(let path, let reason):
            "cannot write to \(path): \(reason)"
        case .invalidState(let cardID):
            "card \(cardID) would get a schedule that is not a finite number; nothing was written"
        }
    }
}

extension StoreError {
    /// Runs `body`, turning SQLite's and the file system's errors into sentences about `path`.
    static func during<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw StoreError(error, path: path) ?? error
        }
    }

    /// The same while opening: a folder, a missing folder or an unreadable file is named.
    static func opening<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try during(path, body)
        } catch let error as CocoaError {
            throw StoreError.cannotOpen(path: path, reason: (error.underlying as? POSIXError).map { String(cString: strerror($0.code.rawValue)) }
                                        ?? "its folder cannot be made")
        }
    }

    /// Why a file that exists cannot be written where it is, if that is the reason: SQLite
    /// says only that it cannot open it.
    static func placeProblem(_ path: String) -> String? {
        guard FileManager.default.isReadableFile(atPath: path) else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        for target in [folder.isEmpty ? "." : folder, path] where access(target, W_OK) != 0 {
            if errno == EROFS { return "it is on a read-only file system" }
            if errno == EACCES { return target == path ? "this user may not write the file" : "this user may not write its folder" }
        }
        return nil
    }

    /// Less than a megabyte left where the collection is: a write there fails as an I/O error.
    static func diskIsFull(_ path: String) -> Bool {
        var stats = statvfs()
        let folder = (path as NSString).deletingLastPathComponent
        guard statvfs(folder.isEmpty ? "." : folder, &stats) == 0 else { return false }
        return UInt64(stats.f_bavail) * UInt64(stats.f_frsize) < 1 << 20
    }

    init?(_ error: DatabaseError, path: String) {
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            self = .damaged(path: path, detail: error.message ?? "the file is malformed")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self = .busy(path: path)
        case .SQLITE_READONLY:
            self = Self.placeProblem(path).map { .readOnlyPlace(path: path, reason: $0) } ?? .readOnly(path: path)
        case .SQLITE_FULL:
            self = .diskFull(path: path)
        case .SQLITE_CANTOPEN, .SQLITE_IOERR:
            var isFolder: ObjCBool = false
            if let reason = Self.placeProblem(path) {
                self = .readOnlyPlace(path: path, reason: reason)
            } else if Self.diskIsFull(path) {
                self = .diskFull(path: path)
            } else if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                self = .cannotOpen(path: path, reason: "it is a folder, not a collection file")
            } else if error.resultCode == .SQLITE_CANTOPEN {
                self = .cannotOpen(path: path, reason: "SQLite cannot open the file there")
            } else {
                self = .cannotOpen(path: path, reason: "the disk gave an error while reading or writing it")
            }
        default:
            return nil
        }
    }
}

/// What a writer does when another process holds the collection: wait, saying so once after a
/// second, and give up after a minute.
final class BusyWait: Sendable {
    let notice: (@Sendable () -> Void)?
    private let state = Mutex<(started: ContinuousClock.Instant?, told: Bool)>((nil, false))

    init(notice: (@Sendable () -> Void)?) {
        self.notice = notice
    }

    func retry(_ tries: Int) -> Bool {
        let now = ContinuousClock.now
        let (started, tell) = state.withLock { current -> (ContinuousClock.Instant, Bool) in
            if tries == 0 || current.started == nil { current = (now, false) }
            let waited = now - current.started!
            let tell = waited > .seconds(1) && !current.told
            if tell { current.told = true }
            return (current.started!, tell)
        }
        if tell { notice?() }
        guard now - started < .seconds(60) else { return false }
        usleep(tries < 10 ? 2_000 : 20_000)
        return true
    }
}
