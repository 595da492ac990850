import Foundation

/// The few protobuf fields a package's media list needs.
enum Protobuf {
    static func varint(_ value: UInt64) -> Data {
        var value = value
        var bytes = Data()
        repeat {
            bytes.append(UInt8(value & 0x7F) | (value > 0x7F ? 0x80 : 0))
            value >>= 7
        } while value > 0
        return bytes
    }

    static func varint(_ field: Int, _ value: UInt64) -> Data { varint(UInt64(field << 3)) + varint(value) }

    static func bytes(_ field: Int, _ data: Data) -> Data { varint(UInt64(field << 3 | 2)) + varint(UInt64(data.count)) + data }
}
