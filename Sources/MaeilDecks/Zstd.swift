import CZstd
import Foundation

/// zstd decompression through Debian's libzstd. Anki writes frames without a content size,
/// so this streams, and it stops at `limit` bytes: a small file must not unpack into gigabytes.
package enum Zstd {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package struct TooLarge: Error {}

    static let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]

    package static func decompress(_ input: Data, limit: Int64) throws -> Data {
        var output = Data()
        _ = try decompress(input, limit: limit) { output.append($0.bindMemory(to: UInt8.self)) }
        return output
    }

    /// The same, written into a new file at `url` a chunk at a time; the bytes written.
    @discardableResult
    package static func decompress(_ input: Data, to url: URL, limit: Int64) throws -> Int64 {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let writer = try FileHandle(forWritingTo: url)
        defer { try? writer.close() }
        return try decompress(input, limit: limit) { try writer.write(contentsOf: $0) }
    }

    /// Hands each piece of output to `write` as it comes; the bytes handed on.
    private static func decompress(_ input: Data, limit: Int64, write: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        guard let stream = ZSTD_createDStream() else { throw Failure(description: "cannot start zstd") }
        defer { ZSTD_freeDStream(stream) }
        ZSTD_initDStream(stream)
        var total: Int64 = 0
        let chunk = ZSTD_DStreamOutSize()
        var buffer = [UInt8](repeating: 0, count: chunk)
        try input.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var inBuffer = ZSTD_inBuffer(src: raw.baseAddress, size: raw.count, pos: 0)
            var finished = false
            while !finished {
                let result = try buffer.withUnsafeMutableBytes { outRaw -> Int in
                    var outBuffer = ZSTD_outBuffer(dst: outRaw.baseAddress, size: chunk, pos: 0)
                    let code = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
                    if ZSTD_isError(code) != 0 { return -1 }
                    total += Int64(outBuffer.pos)
                    if total > limit { throw TooLarge() }
                    try write(UnsafeRawBufferPointer(rebasing: outRaw[..<outBuffer.pos]))
                    // Done when a frame ended and all input is used, or no progress is possible.
                    if code == 0 && inBuffer.pos == inBuffer.size { return 1 }
                    if outBuffer.pos == 0 && inBuffer.pos == inBuffer.size { return 2 }
                    return 0
                }
                if result == -1 { throw Failure(description: "the zstd data is corrupt") }
                if result == 2 { throw Failure(description: "the zstd data ends early") }
                finished = result == 1
            }
        }
        return total
    }
}
