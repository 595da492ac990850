import Foundation
import Testing
@testable import MaeilCore
import MaeilTestSupport

/// What an answer does besides scheduling: leeches and sibling burying, decided with no database.
@Suite("Answer plans")
struct AnswerPlanTests {
    static let now = Fixture.noon

    func plan(_ outcome: Outcome, card: AnsweredCard, siblings: [SiblingCard] = [], preset: Preset = Preset(name: "p")) -> AnswerPlan {
        AnswerPlan(answering: card, siblings: siblings, rating: .again, outcome: outcome, at: Self.now, durationMilliseconds: 2500,
                   scheduler: .ankiSM2, preset: preset, clock: Fixture.clock)
    }

    static let card = AnsweredCard(id: 7, noteID: 3, state: Fixture.reviewCard(interval: 10, lapses: 7), suspended: false, noteTaggedLeech: false)

    @Test func aLeechIsTaggedOnceAndSuspendedWhenThePresetSaysSo() {
        let leech = Outcome(state: Fixture.reviewCard(interval: 1, lapses: 8), leech: true)
        #expect(plan(leech, card: Self.card).entry.leech == [.tagged])
        var tagged = Self.card
        tagged.noteTaggedLeech = true
        #expect(plan(leech, card: tagged).entry.leech == [])
        var suspending = Preset(name: "p")
        suspending.scheduler.leechAction = .suspend
        #expect(plan(leech, card: Self.card, preset: suspending).entry.leech == [.tagged, .suspended])
        #expect(plan(leech, card: Self.card, preset: suspending).leech)
        #expect(plan(Outcome(state: Fixture.reviewCard(interval: 1, lapses: 7)), card: Self.card, preset: suspending).entry.leech == [])
    }

    @Test func siblingsInNewOrReviewAreBuriedUntilTheNextStudyDay() {
        let rollover = Fixture.clock.nextRollover(after: Self.now)
        let earlier = rollover.addingTimeInterval(-86_400)
        let siblings = [
            SiblingCard(id: 8, phase: .new, suspended: false, buriedUntil: nil),
            SiblingCard(id: 9, phase: .review, suspended: false, buriedUntil: earlier),
            SiblingCard(id: 10, phase: .learning, suspended: false, buriedUntil: nil),
            SiblingCard(id: 11, phase: .new, suspended: true, buriedUntil: nil),
            SiblingCard(id: 12, phase: .review, suspended: false, buriedUntil: rollover.addingTimeInterval(86_400)),
            SiblingCard(id: 7, phase: .review, suspended: false, buriedUntil: nil),
        ]
        let outcome = Outcome(state: Fixture.reviewCard(interval: 1))
        let planned = plan(outcome, card: Self.card, siblings: siblings)
        #expect(planned.entry.buried == [SiblingBurial(cardID: 8, previous: nil), SiblingBurial(cardID: 9, previous: earlier)])
        #expect(planned.buryUntil == rollover)
        let off = plan(outcome, card: Self.card, siblings: siblings, preset: Preset(name: "p", burySiblings: false))
        #expect(off.entry.buried.isEmpty && off.buryUntil == nil)
    }

    @Test func theLogEntryHoldsBothStatesAndTheAnswer() {
        let after = Fixture.reviewCard(interval: 1, lapses: 8)
        let entry = plan(Outcome(state: after), card: Self.card).entry
        #expect(entry.before == Self.card.state && entry.after == after)
        #expect(entry.rating == .again && entry.kind == .answer && entry.scheduler == "anki-sm2")
        #expect(entry.time == Self.now && entry.durationMilliseconds == 2500)
    }
}
