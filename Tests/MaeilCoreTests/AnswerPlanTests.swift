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

    /// Anki's three switches, each for its kind of sibling, and no kind a day's queue takes
    /// before the answered card's own: a new card buries only new siblings, a review no
    /// learning ones; a learning card due later today is never buried.
    @Test func eachSwitchBuriesItsKindAsAnkiDoes() {
        let clock = Fixture.clock
        let yesterday = Self.now.addingTimeInterval(-86_400)
        let siblings = [
            SiblingCard(id: 8, phase: .new, suspended: false, buriedUntil: nil),
            SiblingCard(id: 9, phase: .review, suspended: false, buriedUntil: nil),
            // Answered yesterday, due again tonight: interday learning.
            SiblingCard(id: 10, phase: .learning, suspended: false, buriedUntil: nil, due: Self.now.addingTimeInterval(3600), lastReview: yesterday),
            // Answered an hour ago, due in ten minutes: learning within the day.
            SiblingCard(id: 11, phase: .relearning, suspended: false, buriedUntil: nil, due: Self.now.addingTimeInterval(600),
                        lastReview: Self.now.addingTimeInterval(-3600)),
        ]
        func buried(_ answered: CardState, new: Bool = true, reviews: Bool = true, interday: Bool = true) -> [Int64] {
            var preset = Preset(name: "p")
            (preset.buryNew, preset.buryReviews, preset.buryInterdayLearning) = (new, reviews, interday)
            let card = AnsweredCard(id: 7, noteID: 3, state: answered, suspended: false, noteTaggedLeech: false)
            return AnswerPlan(answering: card, siblings: siblings, rating: .good, outcome: Outcome(state: Fixture.reviewCard(interval: 3)), at: Self.now,
                              durationMilliseconds: 1000, scheduler: .ankiSM2, preset: preset, clock: clock).entry.buried.map(\.cardID)
        }
        let learning = CardState(phase: .learning, step: 1, due: Self.now, lastReview: Self.now.addingTimeInterval(-600))
        #expect(buried(.new) == [8])
        #expect(buried(Self.card.state) == [8, 9])
        #expect(buried(learning) == [8, 9, 10])
        #expect(buried(learning, new: false) == [9, 10])
        #expect(buried(learning, reviews: false) == [8, 10])
        #expect(buried(learning, interday: false) == [8, 9])
        #expect(buried(learning, new: false, reviews: false, interday: false).isEmpty)
    }

    @Test func theLogEntryHoldsBothStatesAndTheAnswer() {
        let after = Fixture.reviewCard(interval: 1, lapses: 8)
        let entry = plan(Outcome(state: after), card: Self.card).entry
        #expect(entry.before == Self.card.state && entry.after == after)
        #expect(entry.rating == .again && entry.kind == .answer && entry.scheduler == "anki-sm2")
        #expect(entry.time == Self.now && entry.durationMilliseconds == 2500)
    }
}
