import PropertyBased
import Testing
@testable import MaeilCore

struct NoteIDSetTests {
    /// Whatever the ids (repeats, negatives, clusters a multiply could pile up) and however
    /// much room was reserved, it answers as the standard library's set does.
    @Test func answersAsTheStandardSetDoes() async {
        let ids = Gen.oneOf(Gen.int64(in: -50...50), Gen.int64(in: 0...(1 << 40)).map { $0 << 20 }, Gen.int64(in: .min...(.max)))
        await propertyCheck(count: 300, input: ids.array(of: 0...3000), Gen.int(in: 0...4000)) { ids, reserved in
            var set = NoteIDSet(capacity: reserved / 2)
            set.reserve(reserved / 2)
            var reference = Set<Int64>()
            for id in ids where id != .min {
                #expect(set.insert(id) == reference.insert(id).inserted)
            }
            #expect(set.count == reference.count)
        }
    }
}
