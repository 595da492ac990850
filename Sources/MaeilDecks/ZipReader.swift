import CSystemZlib
import Foundation

/// Reads entries of a zip archive from memory, defensively: an Anki package is untrusted input.
///
/// ZIPFoundation (used for writing exports) loops for ever when a deflated entry's data ends
/// before its stream does, and cannot be stopped from outside, so packages are read here:
/// the central directory, each local header, stored or deflated data through the system zlib,
/// every offset and length checked against the file, and the output capped by the caller.
package struct ZipReader {
    package struct Entry {
        package let name: String
        let method: UInt16
        let compressedSize: Int
        let uncompressedSize: Int
        let localHeaderOffset: Int
        let crc32: UInt32
    }

    package enum Failure: Error, CustomStringConvertible {
        case notZip
        case corrupt(String)
        case tooLarge
        /// Expands to more than `ratio` times its compressed size: a zip bomb.
        case expandsTooMuch(ratio: Int)

        package var description: String {
            switch self {
            case .notZip: "not a zip archive"
            case .corrupt(let detail): "corrupt zip: \(detail)"
            case .tooLarge: "too large"
            case .expandsTooMuch(let ratio): "expands to more than \(ratio) times its packed size"
            }
        }
    }

    /// Data that unpacks to more than this many times its packed size, past the first MiB, is
    /// a zip bomb: Anki's collections pack 3–20 to 1, pictures and sound about 1 to 1.
    static let maximumRatio = 200

    let data: Data
    package let entries: [Entry]

    package init(data: Data) throws {
        self.data = data
        entries = try Self.centralDirectory(data)
    }

    private static func integer<T: FixedWidthInteger>(_ data: Data, _ offset: Int, _: T.Type = T.self) throws -> T {
        let size = MemoryLayout<T>.size
        guard offset >= 0, offset + size <= data.count else { throw Failure.corrupt("a header runs past the end of the file") }
        var value: T = 0
        for index in 0..<size { value |= T(data[data.startIndex + offset + index]) << (8 * index) }
        return value
    }

    /// The end-of-central-directory record is in the last 64 KiB (its comment can be that long).
    static func centralDirectory(_ data: Data) throws -> [Entry] {
        guard data.count >= 22 else { throw Failure.notZip }
        var end = -1
        var offset = data.count - 22
        let lowest = max(0, data.count - 22 - 65_535)
        while offset >= lowest {
            if try integer(data, offset, UInt32.self) == 0x0605_4B50 { end = offset; break }
            offset -= 1
        }
        guard end >= 0 else { throw Failure.notZip }
        let count = Int(try integer(data, end + 10, UInt16.self))
        let size = Int(try integer(data, end + 12, UInt32.self))
        let start = Int(try integer(data, end + 16, UInt32.self))
        guard start == 0xFFFF_FFFF || count != 0xFFFF else { throw Failure.corrupt("zip64 archives are not supported") }
        guard start >= 0, start + size <= end else { throw Failure.corrupt("the central directory is outside the file") }
        var entries: [Entry] = []
        var position = start
        for _ in 0..<count {
            guard try integer(data, position, UInt32.self) == 0x0201_4B50 else { throw Failure.corrupt("a central directory entry is damaged") }
            let method = try integer(data, position + 10, UInt16.self)
            let crc = try integer(data, position + 16, UInt32.self)
            let compressed = Int(try integer(data, position + 20, UInt32.self))
            let uncompressed = Int(try integer(data, position + 24, UInt32.self))
            let nameLength = Int(try integer(data, position + 28, UInt16.self))
            let extraLength = Int(try integer(data, position + 30, UInt16.self))
            let commentLength = Int(try integer(data, position + 32, UInt16.self))
            let local = Int(try integer(data, position + 42, UInt32.self))
            let nameStart = position + 46
            guard nameStart + nameLength <= data.count else { throw Failure.corrupt("an entry name runs past the end of the file") }
            let name = String(decoding: data[(data.startIndex + nameStart)..<(data.startIndex + nameStart + nameLength)], as: UTF8.self)
            entries.append(Entry(name: name, method: method, compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: local,
                                 crc32: crc))
            position = nameStart + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// The entry's bytes, at most `limit` of them.
    package func extract(_ entry: Entry, limit: Int64) throws -> Data {
        var output = Data()
        try extract(entry, limit: limit) { output.append($0) }
        return output
    }

    /// The entry unpacked into a new file at `url`, a piece at a time: a collection of half a
    /// gigabyte is never held in memory whole. Answers how many bytes it unpacked to.
    package func extract(_ entry: Entry, limit: Int64, to url: URL) throws -> Int64 {
        guard FileManager.default.createFile(atPath: url.path, contents: nil), let handle = FileHandle(forWritingAtPath: url.path) else {
            throw Failure.corrupt("cannot write \(url.lastPathComponent)")
        }
        defer { try? handle.close() }
        var written: Int64 = 0
        try extract(entry, limit: limit) { piece in
            try handle.write(contentsOf: piece)
            written += Int64(piece.count)
        }
        return written
    }

    /// The entry unpacked, handed on a piece at a time, its checksum checked at the end.
    private func extract(_ entry: Entry, limit: Int64, into sink: (Data) throws -> Void) throws {
        let header = entry.localHeaderOffset
        guard try Self.integer(data, header, UInt32.self) == 0x0403_4B50 else { throw Failure.corrupt("the local header of \(entry.name) is missing") }
        let nameLength = Int(try Self.integer(data, header + 26, UInt16.self))
        let extraLength = Int(try Self.integer(data, header + 28, UInt16.self))
        let start = header + 30 + nameLength + extraLength
        guard start >= 0, entry.compressedSize >= 0, start + entry.compressedSize <= data.count else {
            throw Failure.corrupt("the data of \(entry.name) runs past the end of the file")
        }
        let compressed = data[(data.startIndex + start)..<(data.startIndex + start + entry.compressedSize)]
        var crc = CSystemZlib.crc32(0, nil, 0)
        func take(_ piece: Data) throws {
            crc = Self.crc32(piece, continuing: crc)
            try sink(piece)
        }
        switch entry.method {
        case 0:
            guard Int64(compressed.count) <= limit else { throw Failure.tooLarge }
            try take(Data(compressed))
        case 8:
            try Self.inflate(compressed, limit: limit, name: entry.name, into: take)
        default:
            throw Failure.corrupt("\(entry.name) uses compression method \(entry.method), which Anki does not write")
        }
        guard UInt32(crc) == entry.crc32 else { throw Failure.corrupt("\(entry.name) fails its checksum (CRC-32)") }
    }

    static func crc32(_ data: Data) -> UInt32 {
        UInt32(crc32(data, continuing: CSystemZlib.crc32(0, nil, 0)))
    }

    static func crc32(_ data: Data, continuing start: uLong) -> uLong {
        data.withUnsafeBytes { bytes in
            var crc = start
            var offset = 0
            // zlib takes 32-bit lengths.
            while offset < bytes.count {
                let length = min(bytes.count - offset, 1 << 30)
                crc = CSystemZlib.crc32(crc, bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Bytef.self), uInt(length))
                offset += length
            }
            return crc
        }
    }

    /// Raw deflate, stopping at `limit` bytes, and failing (not waiting) when the data ends
    /// before the stream does.
    static func inflate(_ input: Data, limit: Int64, name: String) throws -> Data {
        var output = Data()
        try inflate(input, limit: limit, name: name) { output.append($0) }
        return output
    }

    /// The same, handing the output on in pieces of at most 64 KiB.
    static func inflate(_ input: Data, limit: Int64, name: String, into sink: (Data) throws -> Void) throws {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure.corrupt("cannot start zlib")
        }
        defer { inflateEnd(&stream) }
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var bytes = [UInt8](input)
        let status: Int32 = try bytes.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            while true {
                let produced: (Int32, Int) = buffer.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.next_out = outputBuffer.baseAddress
                    stream.avail_out = UInt32(outputBuffer.count)
                    let result = CSystemZlib.inflate(&stream, Z_NO_FLUSH)
                    return (result, outputBuffer.count - Int(stream.avail_out))
                }
                total += produced.1
                if Int64(total) > limit { return -100 }
                if produced.1 > 0 { try sink(Data(buffer.prefix(produced.1))) }
                // The ratio is checked against the input read so far, so a bomb is stopped after
                // its first MiB, not after it has filled memory.
                let consumed = inputBuffer.count - Int(stream.avail_in)
                if total > 1 << 20, total > consumed * Self.maximumRatio { return -101 }
                switch produced.0 {
                case Z_STREAM_END: return Z_STREAM_END
                case Z_OK: if produced.1 == 0 && stream.avail_in == 0 { return Z_BUF_ERROR }
                case Z_BUF_ERROR: return Z_BUF_ERROR
                default: return produced.0
                }
            }
        }
        bytes.removeAll()
        switch status {
        case Z_STREAM_END: return
        case -100: throw Failure.tooLarge
        case -101: throw Failure.expandsTooMuch(ratio: maximumRatio)
        case Z_BUF_ERROR: throw Failure.corrupt("the compressed data of \(name) ends early")
        default: throw Failure.corrupt("the compressed data of \(name) is damaged")
        }
    }
}
