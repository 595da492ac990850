import Foundation
import MaeilDecks
import Testing

/// The system's SHA-1 behind Anki's note checksums and media lists, against FIPS 180's examples
/// and Python's hashlib.
@Suite("SHA-1")
struct SHA1Tests {
    @Test func digestsAsTheStandardSays() {
        #expect(SHA1.hex(Data()) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hex(Data("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA1.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(SHA1.hex(Data(repeating: 0x61, count: 1_000_000)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    /// Anki's checksum of a note whose first field is 물 (hashlib's digest's first four bytes).
    @Test func digestIsTwentyBytes() {
        let digest = SHA1.digest(Data("물".utf8))
        #expect(digest.count == 20)
        #expect(digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } == 3_196_746_002)
    }
}
