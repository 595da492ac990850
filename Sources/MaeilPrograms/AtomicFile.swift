import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file so that a reader polling it sees the old content or the new, never a part:
/// a temporary file in the same folder, fsync, then rename over the old one.
package enum AtomicFile {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static func write(_ text: String, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        // Named for this process: the next write removes one a killed writer left.
        let here = URL(fileURLWithPath: directory.isEmpty ? "." : directory), prefix = ".\((path as NSString).lastPathComponent)."
        Leftovers.removeDead(in: here, prefix: prefix, suffix: ".tmp")
        let temporary = here.appendingPathComponent(Leftovers.name(prefix, ".tmp")).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        var failed: String?
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                failed = String(cString: strerror(errno))
                break
            }
            written += result
        }
        if failed == nil, fsync(descriptor) != 0 { failed = String(cString: strerror(errno)) }
        close(descriptor)
        if failed == nil, rename(temporary, path) != 0 { failed = String(cString: strerror(errno)) }
        if let failed {
            unlink(temporary)
            throw Failure(description: "cannot write \(path): \(failed)")
        }
        // Make the rename itself durable.
        let folder = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}
