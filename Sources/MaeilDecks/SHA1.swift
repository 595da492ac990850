import CLibCrypto
import Foundation

/// SHA-1 as Anki uses it: a note's checksum and each media file's entry in a package's and a
/// sync's media lists. The system's libcrypto computes it; a vendored copy of a crypto library
/// took a minute and a half of every fresh build for this one function.
package enum SHA1 {
    /// The 20 bytes of `data`'s digest.
    package static func digest(_ data: Data) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 20)
        let done = data.withUnsafeBytes { bytes in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(bytes.baseAddress, bytes.count, out.baseAddress, nil, EVP_sha1(), nil)
            }
        }
        // Fails only without memory: a wrong checksum would be worse than stopping.
        precondition(done == 1, "libcrypto could not compute a SHA-1 digest")
        return digest
    }

    /// The digest in lowercase hex, as Anki's media lists write it.
    package static func hex(_ data: Data) -> String {
        digest(data).map { String(format: "%02x", $0) }.joined()
    }
}
