/// The note ids met while a day's queue is gathered, where only whether a note was met counts.
///
/// Open addressing over a power-of-two table, the slot chosen by a multiply (Fibonacci
/// hashing). The standard library's `Set` hashes every id with a seeded SipHash, which on a
/// day with thousands of due reviews costs as much as reading them; ids are distinct integers,
/// and a multiply spreads them well enough.
struct NoteIDSet {
    /// `empty` marks a free slot; no row id is `Int64.min`.
    private static let empty = Int64.min
    private var slots: [Int64]
    private var shift: UInt64
    private(set) var count = 0

    init(capacity: Int = 0) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: Self.empty, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    /// Adds `id`; answers whether it was not there before.
    mutating func insert(_ id: Int64) -> Bool {
        if (count + 1) * 2 > slots.count { grow(to: slots.count * 2) }
        let inserted = slots.withUnsafeMutableBufferPointer { Self.insert(id, into: $0, shift: shift) }
        if inserted { count += 1 }
        return inserted
    }

    /// Room for `extra` more ids without growing as they come.
    mutating func reserve(_ extra: Int) {
        var size = slots.count
        while size < (count + extra) * 2 { size <<= 1 }
        if size > slots.count { grow(to: size) }
    }

    private mutating func grow(to size: Int) {
        let old = slots
        slots = Array(repeating: Self.empty, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        slots.withUnsafeMutableBufferPointer { table in
            for id in old where id != Self.empty { _ = Self.insert(id, into: table, shift: shift) }
        }
    }

    private static func insert(_ id: Int64, into table: UnsafeMutableBufferPointer<Int64>, shift: UInt64) -> Bool {
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while true {
            let held = table[slot]
            if held == id { return false }
            if held == empty {
                table[slot] = id
                return true
            }
            slot = (slot + 1) & mask
        }
    }
}
