import Foundation

/// A deck's name as it is kept and compared: two names that print alike are one name. NFC
/// (a name typed on a Mac arrives decomposed), no invisible characters (zero-width spaces and
/// joiners, byte-order marks), and no line breaks or other control characters, which would
/// split the `decks` table: each becomes a space, and runs of spaces one.
package enum DeckName {
    static let invisible: Set<UInt32> = [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD]

    package static func canonical(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.precomposedStringWithCanonicalMapping.unicodeScalars where !invisible.contains(scalar.value) {
            let control = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            let space = control || scalar.properties.isWhitespace
            if space, scalars.last == " " || scalars.isEmpty { continue }
            scalars.append(space ? " " : scalar)
        }
        return String(scalars).trimmingCharacters(in: .whitespaces)
    }
}
