/// How Anki orders reviews its review order leaves tied (a day's due cards under "due date",
/// every card under "random"): by a hash of the card's id and modification time, Anki's SQL
/// function `fnvhash(id, mod)` (64-bit FNV-1a over each number's eight bytes, low byte first),
/// compared as a signed number. The same cards in the same state come in the same order on
/// both sides, so where a limit cuts through a day's cards it keeps the cards Anki keeps.
public enum AnkiTieBreak {
    /// The rank of a card with Anki id `cardID` last changed at `modified` (unix seconds).
    @inlinable
    public static func rank(cardID: Int64, modified: Int64) -> Int64 {
        Int64(bitPattern: hashed(UInt64(bitPattern: modified), after: hashed(UInt64(bitPattern: cardID), after: 0xcbf2_9ce4_8422_2325)))
    }

    /// FNV-1a's state after `value`'s eight bytes, low byte first.
    @inlinable
    static func hashed(_ value: UInt64, after state: UInt64) -> UInt64 {
        var (hash, bits) = (state, value)
        for _ in 0..<8 {
            hash = (hash ^ (bits & 0xFF)) &* 0x0000_0100_0000_01B3
            bits >>= 8
        }
        return hash
    }
}
