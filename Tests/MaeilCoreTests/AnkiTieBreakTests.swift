import Testing
@testable import MaeilCore

@Suite("Anki's order of tied reviews")
struct AnkiTieBreakTests {
    /// Values Anki 26.9.3's own SQL function gave (`SELECT fnvhash(1, 2)` and the like, through
    /// its Python library's `col.db.scalar`), the second a card's id and modification time.
    @Test func ranksAsAnkisFnvhash() {
        #expect(AnkiTieBreak.rank(cardID: 1, modified: 2) == 8_581_494_755_304_202_342)
        #expect(AnkiTieBreak.rank(cardID: 1_790_758_800_024, modified: 1_793_538_654) == -4_854_833_277_648_170_656)
        #expect(AnkiTieBreak.rank(cardID: 1_790_758_800_018, modified: 1_791_831_139) == -596_826_159_779_739_241)
        #expect(AnkiTieBreak.rank(cardID: 1_790_758_800_020, modified: 1_792_907_459) == 9_152_321_415_722_279_197)
    }
}
