import CZstd
import Foundation

/// zstd through Debian's libzstd. Anki writes frames without a content size,
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

extension Zstd {
    /// The size from which a file is compressed on more than one thread: below it, starting
    /// the threads costs more than they save.
    static let multithreadFrom: UInt64 = 4 << 20

    /// A file compressed as one zstd frame with its content size, a chunk at a time.
    package static func compress(file input: URL, to output: URL, level: Int32 = 3) throws {
        guard let context = ZSTD_createCCtx() else { throw Failure(description: "cannot start zstd") }
        defer { ZSTD_freeCCtx(context) }
        let reader = try FileHandle(forReadingFrom: input)
        defer { try? reader.close() }
        let size = try reader.seekToEnd()
        try reader.seek(toOffset: 0)
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: output.path])
        }
        let writer = try FileHandle(forWritingTo: output)
        defer { try? writer.close() }
        func check(_ code: Int) throws {
            if ZSTD_isError(code) != 0 { throw Failure(description: "zstd could not compress the package: " + String(cString: ZSTD_getErrorName(code))) }
        }
        try check(ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level))
        try check(ZSTD_CCtx_setPledgedSrcSize(context, size))
        // A large file on every core, as Anki compresses a collection (11 MB: 0.08 s on one of
        // two). A library built without threads refuses the setting and compresses on this one.
        // In jobs of 2 MB: zstd's own at level 3 is 8 MB, so of an 11 MB file one worker took
        // 8 MB and the other 3 (zstd's command line, two cores: 54–59 ms against 78–79, the
        // output the same size within 0.1 %).
        if size >= multithreadFrom,
           ZSTD_isError(ZSTD_CCtx_setParameter(context, ZSTD_c_nbWorkers, Int32(ProcessInfo.processInfo.activeProcessorCount))) == 0 {
            _ = ZSTD_CCtx_setParameter(context, ZSTD_c_jobSize, 2 << 20)
        }
        var out = [UInt8](repeating: 0, count: ZSTD_CStreamOutSize())
        var read: UInt64 = 0
        while true {
            let chunk = try reader.read(upToCount: ZSTD_CStreamInSize()) ?? Data()
            read += UInt64(chunk.count)
            let last = chunk.isEmpty
            try chunk.withUnsafeBytes { raw in
                var inBuffer = ZSTD_inBuffer(src: raw.baseAddress, size: raw.count, pos: 0)
                var done = false
                while !done {
                    let (remaining, written) = try out.withUnsafeMutableBytes { outRaw -> (Int, Int) in
                        var outBuffer = ZSTD_outBuffer(dst: outRaw.baseAddress, size: outRaw.count, pos: 0)
                        let remaining = ZSTD_compressStream2(context, &outBuffer, &inBuffer, last ? ZSTD_e_end : ZSTD_e_continue)
                        try check(remaining)
                        return (remaining, outBuffer.pos)
                    }
                    if written > 0 { try writer.write(contentsOf: out[..<written]) }
                    done = last ? remaining == 0 : inBuffer.pos == inBuffer.size
                }
            }
            if last { break }
        }
        // The file changed under the compressor: the frame's size would not match it.
        guard read == size else { throw Failure(description: "the collection changed while it was compressed") }
    }

    /// One zstd frame, with its content size, as Anki writes its packages.
    package static func compress(_ data: Data, level: Int32 = 3) throws -> Data {
        var output = Data(count: ZSTD_compressBound(data.count))
        let written = output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in ZSTD_compress(out.baseAddress, out.count, input.baseAddress, input.count, level) }
        }
        guard ZSTD_isError(written) == 0 else { throw Failure(description: "zstd could not compress the package") }
        output.count = written
        return output
    }
}
