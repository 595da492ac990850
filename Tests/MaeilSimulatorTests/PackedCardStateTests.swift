import Foundation
import PropertyBased
import Testing
@testable import MaeilCore
@testable import MaeilSimulator

@Suite("Packed card states")
struct PackedCardStateTests {
    /// A deck's starting card keeps its state exactly through the packing, every field and
    /// every absence, for any value a schedule can hold.
    @Test func aStartingCardKeepsItsStateExactly() async {
        let dates = Gen.int(in: -2_000_000_000...4_000_000_000).map { Date(timeIntervalSince1970: Double($0) / 3) }
        let counts = Gen.int(in: 0...1_000_000)
        await propertyCheck(count: 500, input: Gen<CardPhase>.case, counts.array(of: 7...7), Gen.double(in: 0.001...36_500).optional,
                            Gen.double(in: 1...10).optional, dates.optional, dates.optional) { phase, numbers, stability, difficulty, due, last in
            let state = CardState(phase: phase, step: numbers[0], scheduledSeconds: numbers[1], intervalDays: numbers[2], easePermille: numbers[3],
                                  stability: stability, difficulty: difficulty, due: due, reps: numbers[4], lapses: numbers[5], streak: numbers[6],
                                  lastReview: last)
            let card = StartingCard(state: state, memory: stability.map { MemoryState(stability: $0, difficulty: 5) }, daysSinceReview: numbers[0],
                                    dueInDays: -numbers[1], lapses: numbers[5])
            #expect(card.state == state)
            #expect(card.phase == phase)
            #expect((card.daysSinceReview, card.dueInDays, card.lapses) == (numbers[0], -numbers[1], numbers[5]))
        }
    }
}
