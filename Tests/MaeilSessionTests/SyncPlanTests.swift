import Foundation
import MaeilStore
import MaeilSync
import Testing
@testable import MaeilSession

/// Issue 24: a normal sync wherever the two sides share a schema and this side can tell what
/// changed here; otherwise which side's copy a full sync keeps follows from who changed what
/// since the last sync, and a side with cards is never replaced unless only the other changed,
/// or the learner says.
@Suite("What a sync does")
struct SyncPlanTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let endpoint = "http://127.0.0.1:1/"
    static let mark = SyncMark(endpoint: endpoint, serverModified: 5_000, schema: 7_000, usn: 4)

    static func meta(modified: Int64 = 5_000, schema: Int64 = 7_000, empty: Bool = false, clock: Int64 = 0) -> ServerMeta {
        ServerMeta(modified: modified, schema: schema, usn: 4, serverTime: Int64(now.timeIntervalSince1970) + clock, empty: empty)
    }

    static func plan(_ meta: ServerMeta, mark: SyncMark? = mark, changed: Bool = false, cards: Bool = true, canMerge: Bool = false,
                     choice: SyncPlan.Choice = .automatic) throws -> SyncPlan {
        try SyncPlan.decide(meta: meta, mark: mark, endpoint: endpoint, changedHere: changed, cardsHere: cards, now: now, canMerge: canMerge,
                            choice: choice)
    }

    @Test func firstSyncs() throws {
        #expect(try Self.plan(Self.meta(empty: true), mark: nil, changed: true) == .upload(.firstToEmptyServer))
        #expect(try Self.plan(Self.meta(), mark: nil, changed: true, cards: false) == .download(.firstFromServer))
        #expect(try Self.plan(Self.meta(), mark: nil, changed: true) == .chooseSide(.bothHaveCards))
        // A mark from another server is no mark for this one.
        let elsewhere = SyncMark(endpoint: "http://other/", serverModified: 5_000, schema: 7_000, usn: 4)
        #expect(try Self.plan(Self.meta(), mark: elsewhere) == .chooseSide(.bothHaveCards))
    }

    @Test func laterSyncs() throws {
        #expect(try Self.plan(Self.meta()) == .inSync)
        #expect(try Self.plan(Self.meta(), changed: true) == .upload(.onlyHereChanged))
        #expect(try Self.plan(Self.meta(modified: 6_000)) == .download(.onlyServerChanged))
        #expect(try Self.plan(Self.meta(modified: 6_000), changed: true) == .chooseSide(.bothChangedWithoutBase))
        #expect(try Self.plan(Self.meta(schema: 8_000)) == .download(.serverReplaced))
        #expect(try Self.plan(Self.meta(schema: 8_000), changed: true) == .chooseSide(.serverReplacedAndHereChanged))
    }

    /// With a base to compare with (or nothing changed here), changes cross one by one; a
    /// schema changed on either side still takes a full sync.
    @Test func normalSyncs() throws {
        #expect(try Self.plan(Self.meta(), canMerge: true) == .inSync)
        #expect(try Self.plan(Self.meta(), changed: true, canMerge: true) == .normal(.onlyHereChanged))
        #expect(try Self.plan(Self.meta(modified: 6_000), canMerge: true) == .normal(.onlyServerChanged))
        #expect(try Self.plan(Self.meta(modified: 6_000), changed: true, canMerge: true) == .normal(.bothChanged))
        #expect(try Self.plan(Self.meta(schema: 8_000), changed: true, canMerge: true) == .chooseSide(.serverReplacedAndHereChanged))
        #expect(try Self.plan(Self.meta(schema: 8_000), canMerge: true) == .download(.serverReplaced))
        #expect(try Self.plan(Self.meta(), mark: nil, changed: true, canMerge: true) == .chooseSide(.bothHaveCards))
        #expect(try Self.plan(Self.meta(modified: 6_000), changed: true, canMerge: true, choice: .upload) == .upload(.asked))
    }

    /// The server's time moves when another device downloads; only its content tells a change.
    @Test func aServerTimeMovedWithoutChangeIsNoChange() throws {
        let unchanged: (Int) throws -> Bool = { usn in
            #expect(usn == 4, "asked from the mark's usn")
            return false
        }
        #expect(try SyncPlan.decide(meta: Self.meta(modified: 6_000), mark: Self.mark, endpoint: Self.endpoint, changedHere: false, cardsHere: true,
                                    now: Self.now, changedThere: unchanged) == .inSync)
        #expect(try SyncPlan.decide(meta: Self.meta(modified: 6_000), mark: Self.mark, endpoint: Self.endpoint, changedHere: true, cardsHere: true,
                                    now: Self.now, changedThere: unchanged) == .upload(.onlyHereChanged))
        #expect(try SyncPlan.decide(meta: Self.meta(modified: 6_000), mark: Self.mark, endpoint: Self.endpoint, changedHere: true, cardsHere: true,
                                    now: Self.now, changedThere: { _ in true }) == .chooseSide(.bothChangedWithoutBase))
    }

    /// A sync killed after the server took its upload left the mark of that upload: the
    /// server's copy with its schema time is this collection's own.
    @Test func anUploadThatLandedIsOurs() throws {
        let sent = SyncMark(endpoint: Self.endpoint, serverModified: 9_000, schema: 8_000, usn: 5)
        let landed = Self.meta(modified: 9_000, schema: 8_000)
        #expect(try SyncPlan.decide(meta: landed, mark: Self.mark, endpoint: Self.endpoint, changedHere: true, cardsHere: true, now: Self.now,
                                    uploaded: sent) == .upload(.onlyHereChanged))
        #expect(try SyncPlan.decide(meta: landed, mark: Self.mark, endpoint: Self.endpoint, changedHere: false, cardsHere: true, now: Self.now,
                                    uploaded: sent) == .inSync)
        // Not landed (the server's schema is the old one): as if it was never sent.
        #expect(try SyncPlan.decide(meta: Self.meta(), mark: Self.mark, endpoint: Self.endpoint, changedHere: true, cardsHere: true, now: Self.now,
                                    uploaded: sent) == .upload(.onlyHereChanged))
        // Another device replaced it since: that is the server's change.
        #expect(try SyncPlan.decide(meta: Self.meta(schema: 9_999), mark: Self.mark, endpoint: Self.endpoint, changedHere: true, cardsHere: true,
                                    now: Self.now, uploaded: sent) == .chooseSide(.serverReplacedAndHereChanged))
    }

    @Test func theLearnersChoiceWins() throws {
        #expect(try Self.plan(Self.meta(modified: 6_000), changed: true, choice: .upload) == .upload(.asked))
        #expect(try Self.plan(Self.meta(), choice: .download) == .download(.asked))
    }

    @Test func clocksApartAndRefusalsStop() throws {
        #expect(throws: SyncError.clock(offBy: 301)) { try Self.plan(Self.meta(clock: 301)) }
        #expect(throws: SyncError.clock(offBy: -400)) { try Self.plan(Self.meta(clock: -400), choice: .upload) }
        #expect(try Self.plan(Self.meta(clock: 299)) == .inSync)
        var closed = Self.meta()
        (closed.proceed, closed.message) = (false, "account suspended")
        #expect(try Self.plan(closed) == .refused("account suspended"))
    }
}
