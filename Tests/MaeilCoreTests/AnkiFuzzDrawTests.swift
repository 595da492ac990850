import Testing
@testable import MaeilCore

/// Anki's own draw for an answer: the same card id and reps fuzz an interval as Anki 26.9.3 does.
@Suite("Anki's fuzz draw")
struct AnkiFuzzDrawTests {
    /// (card id, reps, interval, Anki's fuzz delta), from Anki 26.9.3's `fuzz_delta` (fuzz on) for
    /// cards given these ids and one rep more (it draws for the answer before the last).
    static let fromAnki: [(Int64, Int, Float, Int)] = [
        (1_790_557_200_015, 8, 20_000, 218), (1_790_557_200_015, 8, 37, 1),
        (1_400_000_000_001, 0, 20_000, 419), (1_400_000_000_001, 0, 37, 2),
        (1_795_751_506_031, 3, 20_000, 567), (1_795_751_506_031, 3, 37, 3),
        (1_792_371_600_003, 16, 20_000, 555), (1_792_371_600_003, 16, 37, 2),
    ]

    @Test(arguments: fromAnki)
    func reviewFuzzAsAnkiDrawsIt(_ vector: (Int64, Int, Float, Int)) {
        let (card, reps, interval, delta) = vector
        let factor = AnkiFuzzDraw(cardID: card, reps: reps).factor
        #expect(ReviewFuzz.apply(factor: factor, interval: interval, minimum: 1, maximum: 36_500) - Int(interval) == delta)
    }

    /// The learning fuzz stays within [secs, secs + min(25 %, 300 s)) and is the same for the
    /// same answer.
    @Test func learningFuzzStaysInItsRange() {
        for card in Int64(1_790_000_000_000)..<1_790_000_000_200 {
            let draw = AnkiFuzzDraw(cardID: card, reps: 3)
            for secs in [0, 3, 60, 600, 3_600] {
                let fuzzed = draw.learningSeconds(secs)
                #expect(fuzzed >= secs && fuzzed < secs + max(1, min(secs / 4, 300)))
                #expect(fuzzed == AnkiFuzzDraw(cardID: card, reps: 3).learningSeconds(secs))
            }
        }
    }
}
