import Foundation

/// Reads the protobuf wire format: enough for the few fields Maeil needs from an Anki package
/// (the package version, media names, note type kind, template formats). Generating code with
/// swift-protobuf for Anki's whole schema would cost a long build for a handful of fields.
struct ProtobufReader {
    enum Value {
        case varint(UInt64)
        case bytes(Data)
        case fixed64(UInt64)
        case fixed32(UInt32)
    }

    struct Malformed: Error {}

    /// Every (field number, value) in a message, in order.
    static func fields(_ data: Data) throws -> [(Int, Value)] {
        var result: [(Int, Value)] = []
        var index = data.startIndex
        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard index < data.endIndex, shift < 64 else { throw Malformed() }
                let byte = data[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }
        /// A fixed-width little-endian number of `width` bytes.
        func littleEndian(_ width: Int) throws -> UInt64 {
            guard data.endIndex - index >= width else { throw Malformed() }
            var value: UInt64 = 0
            for offset in 0..<width { value |= UInt64(data[index + offset]) << (8 * UInt64(offset)) }
            index += width
            return value
        }
        while index < data.endIndex {
            let key = try varint()
            let field = Int(key >> 3)
            switch key & 7 {
            case 0: result.append((field, .varint(try varint())))
            case 1:
                result.append((field, .fixed64(try littleEndian(8))))
            case 2:
                let length = try varint()
                guard length <= UInt64(data.endIndex - index) else { throw Malformed() }
                let end = index + Int(length)
                result.append((field, .bytes(Data(data[index..<end]))))
                index = end
            case 5:
                result.append((field, .fixed32(UInt32(try littleEndian(4)))))
            default:
                throw Malformed()
            }
        }
        return result
    }

    static func varint(_ data: Data, field: Int) throws -> UInt64? {
        for (number, value) in try fields(data) where number == field {
            if case .varint(let value) = value { return value }
        }
        return nil
    }

    static func string(_ data: Data, field: Int) throws -> String? {
        for (number, value) in try fields(data) where number == field {
            if case .bytes(let bytes) = value { return String(decoding: bytes, as: UTF8.self) }
        }
        return nil
    }

    static func messages(_ data: Data, field: Int) throws -> [Data] {
        try fields(data).compactMap { number, value in
            if number == field, case .bytes(let bytes) = value { return bytes }
            return nil
        }
    }
}
