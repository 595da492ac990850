import Foundation
import MaeilStore
import MaeilSync

/// What a sync will do, decided from the server's `meta`, this collection's mark from the
/// last sync and whether it changed since. Only whole collections cross for now (a full
/// sync); which side's copy wins follows from who changed what, and is asked when both did.
package enum SyncPlan: Equatable, Sendable {
    case inSync
    case upload(Reason)
    case download(Reason)
    /// Both sides hold changes the other lacks: only the learner can pick which to keep.
    case chooseSide(Reason)
    /// The server will not sync this account; its message says why.
    case refused(String)

    package enum Reason: String, Sendable, Equatable {
        case asked, firstToEmptyServer, firstFromServer, bothHaveCards, onlyHereChanged, onlyServerChanged, serverReplaced
        case bothChanged, serverReplacedAndHereChanged

        package var sentence: String {
            switch self {
            case .asked: "as asked"
            case .firstToEmptyServer: "the server holds no cards yet"
            case .firstFromServer: "this collection holds no cards yet"
            case .bothHaveCards: "this collection and the server's both hold cards and have never synced"
            case .onlyHereChanged: "only this collection changed since the last sync"
            case .onlyServerChanged: "only the server's copy changed since the last sync"
            case .serverReplaced: "another device replaced the server's copy (a full sync) since the last sync"
            case .bothChanged: "both this collection and the server's copy changed since the last sync, and Maeil "
                + "does not yet merge the two (a normal sync)"
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

    /// `changedThere` asks the server whether its copy really changed since the mark's usn, when
    /// its time says it might have.
    /// `uploaded` is the mark of an upload a killed sync sent: when the server's copy has its
    /// schema time, the upload landed, and that copy is this collection's own.
    package static func decide(meta: ServerMeta, mark recorded: SyncMark?, endpoint: String, changedHere: Bool, cardsHere: Bool, now: Date,
                               choice: Choice = .automatic, uploaded: SyncMark? = nil,
                               changedThere: (Int) throws -> Bool = { _ in true }) throws -> SyncPlan {
        let mark = uploaded.flatMap { $0.schema == meta.schema && $0.endpoint == endpoint ? $0 : nil } ?? recorded
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
            return cardsHere ? .chooseSide(.bothHaveCards) : .download(.firstFromServer)
        }
        if mark.schema != meta.schema {
            return changedHere ? .chooseSide(.serverReplacedAndHereChanged) : .download(.serverReplaced)
        }
        if try mark.serverModified == meta.modified || !changedThere(mark.usn) {
            return changedHere ? .upload(.onlyHereChanged) : .inSync
        }
        return changedHere ? .chooseSide(.bothChanged) : .download(.onlyServerChanged)
    }
}
