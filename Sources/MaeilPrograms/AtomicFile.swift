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
        try write(to: path) { append in try append(text) }
    }

    /// The same for text made a piece at a time: `produce` hands each piece to `append`, and
    /// the file takes the name only once all of it is written.
    package static func write(to path: String, _ produce: (_ append: (String) throws -> Void) throws -> Void) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        // Named for this process: the next write removes one a killed writer left.
        let here = URL(fileURLWithPath: directory.isEmpty ? "." : directory), prefix = ".\((path as NSString).lastPathComponent)."
        Leftovers.removeDead(in: here, prefix: prefix, suffix: ".tmp")
        let temporary = here.appendingPathComponent(Leftovers.name(prefix, ".tmp")).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        var failed: String?
        var buffer: [UInt8] = []
        func flush() throws {
            var written = 0
            while written < buffer.count {
                let result = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, buffer.count - written) }
                if result < 0 {
                    if errno == EINTR { continue }
                    throw Failure(description: String(cString: strerror(errno)))
                }
                written += result
            }
            buffer.removeAll(keepingCapacity: true)
        }
        do {
            try produce { piece in
                buffer += piece.utf8
                if buffer.count >= 1 << 16 { try flush() }
            }
            try flush()
        } catch let failure as Failure {
            failed = failure.description
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
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
