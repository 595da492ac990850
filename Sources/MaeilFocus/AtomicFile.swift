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
        let temporary = (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
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

/// Where the focus list goes, from `config focus.export` ("json:PATH waybar:PATH …").
package struct FocusTarget: Sendable, Equatable {
    package var format: FocusFormat
    package var path: String

    package init(format: FocusFormat, path: String) {
        self.format = format
        self.path = path
    }

    package static func parse(_ setting: String?, defaultPath: String, home: String) -> [FocusTarget] {
        guard let setting, !setting.trimmingCharacters(in: .whitespaces).isEmpty else {
            return [FocusTarget(format: .json, path: defaultPath)]
        }
        return setting.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { entry in
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let format = FocusFormat(rawValue: parts[0]) else { return nil }
            let path = parts[1].hasPrefix("~/") ? home + parts[1].dropFirst() : parts[1]
            return FocusTarget(format: format, path: path)
        }
    }
}
