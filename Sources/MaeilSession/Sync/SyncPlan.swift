import Foundation
import MaeilStore
import MaeilSync

/// What a sync will do, decided from the server's `meta`, this collection's mark from the
/// last sync and whether it changed since. Changes cross one by one (a normal sync) whenever
/// both sides share a schema and this side knows what it held at the last sync; otherwise
/// whole collections cross (a full sync), and which side's copy wins follows from who changed
/// what, and is asked when both did.
package enum SyncPlan: Equatable, Sendable {
    case inSync
    case normal(Reason)
    case upload(Reason)
    case download(Reason)
    /// Both sides hold changes the other lacks: only the learner can pick which to keep.
    case chooseSide(Reason)
    /// The server will not sync this account; its message says why.
    case refused(String)

    package enum Reason: String, Sendable, Equatable {
        case asked, firstToEmptyServer, firstFromServer, bothHaveCards, onlyHereChanged, onlyServerChanged, serverReplaced
        case bothChanged, bothChangedWithoutBase, serverReplacedAndHereChanged, cannotMerge

        package var sentence: String {
            switch self {
            case .asked: "as asked"
            case .firstToEmptyServer: "the server holds no cards yet"
            case .firstFromServer: "this collection holds no cards yet"
            case .bothHaveCards: "this collection and the server's both hold cards and have never synced"
            case .onlyHereChanged: "only this collection changed since the last sync"
            case .onlyServerChanged: "only the server's copy changed since the last sync"
            case .serverReplaced: "another device replaced the server's copy (a full sync) since the last sync"
            case .bothChanged: "both this collection and the server's copy changed since the last sync"
            case .bothChangedWithoutBase: "both this collection and the server's copy changed since the last sync, and this "
                + "collection keeps no record of what it held then (its last sync was made by an older Maeil), so the two cannot be merged"
            case .cannotMerge: "the changes on the two sides cannot be merged"
            case .serverReplacedAndHereChanged: "another device replaced the server's copy since the last sync, "
                + "and this collection changed too"
            }
        }
    }

    package enum Choice: Sendable {
        case automatic, upload, download
    }

    /// More than this many seconds between the clocks, and the server refuses to sync.
    static let clockTolerance: Int64 = 300

    /// Where this collection stands with the server: the recorded mark, or that of an upload a
    /// killed sync sent when the server's copy has its schema time (the upload landed).
    package static func standing(recorded: SyncMark?, uploaded: SyncMark?, meta: ServerMeta, endpoint: String) -> SyncMark? {
        uploaded.flatMap { $0.schema == meta.schema && $0.endpoint == endpoint ? $0 : nil } ?? recorded
    }

    /// `canMerge`: this side knows what it held at the last sync (or changed nothing since), so
    /// a normal sync can find what changed here.
    /// `changedThere` asks the server whether its copy really changed since the mark's usn, when
    /// its time says it might have.
    /// `uploaded` is the mark of an upload a killed sync sent: when the server's copy has its
    /// schema time, the upload landed, and that copy is this collection's own.
    package static func decide(meta: ServerMeta, mark recorded: SyncMark?, endpoint: String, changedHere: Bool, cardsHere: @autoclosure () throws -> Bool, now: Date,
                               canMerge: Bool = false, choice: Choice = .automatic, uploaded: SyncMark? = nil,
                               changedThere: (Int) throws -> Bool = { _ in true }) throws -> SyncPlan {
        let mark = standing(recorded: recorded, uploaded: uploaded, meta: meta, endpoint: endpoint)
        guard meta.proceed else { return .refused(meta.message) }
        let offset = meta.serverTime - Int64(now.timeIntervalSince1970)
        if abs(offset) > clockTolerance { throw SyncError.clock(offBy: offset) }
        switch choice {
        case .upload: return .upload(.asked)
        case .download: return .download(.asked)
        case .automatic: break
        }
        guard let mark, mark.endpoint == endpoint else {
            if meta.empty { return .upload(.firstToEmptyServer) }
            return try cardsHere() ? .chooseSide(.bothHaveCards) : .download(.firstFromServer)
        }
        if mark.schema != meta.schema {
            return changedHere ? .chooseSide(.serverReplacedAndHereChanged) : .download(.serverReplaced)
        }
        if try mark.serverModified == meta.modified || !changedThere(mark.usn) {
            return changedHere ? (canMerge ? .normal(.onlyHereChanged) : .upload(.onlyHereChanged)) : .inSync
        }
        if canMerge { return .normal(changedHere ? .bothChanged : .onlyServerChanged) }
        return changedHere ? .chooseSide(.bothChangedWithoutBase) : .download(.onlyServerChanged)
    }
}
