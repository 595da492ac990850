import Foundation

/// The rows of a review log CSV in the FSRS optimizer's format, read from its UTF-8 bytes: a
/// log has hundreds of thousands of rows, and splitting them as Strings took ten times as long
/// as fitting them.
struct ReviewLogCSV {
    struct Row {
        var card: Int64
        var time: Int64
        var rating: Int
        var state: Int
    }

    static let columns = ["card_id", "review_time", "review_rating", "review_state"]

    /// Rows in file order. Blank lines are skipped; a problem names its line in the file.
    static func rows(_ text: String) throws(ItemBuilder.CSVProblem) -> [Row] {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(ItemBuilder.CSVProblem) in try rows(bytes) } }.get()
    }

    private static func rows(_ bytes: UnsafeBufferPointer<UInt8>) throws(ItemBuilder.CSVProblem) -> [Row] {
        var rows: [Row] = []
        var columns: [Int]?
        var fields: [Range<Int>] = []
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            lineNumber += 1
            let line = UnsafeBufferPointer(rebasing: bytes[start..<(end > start && bytes[end - 1] == UInt8(ascii: "\r") ? end - 1 : end)])
            start = end + 1
            if line.allSatisfy(isBlank) { continue }
            fieldRanges(line, into: &fields)
            guard let columns else {
                columns = try header(line, fields, lineNumber: lineNumber)
                continue
            }
            func number(_ column: Int) -> Int64? {
                columns[column] < fields.count ? integer(UnsafeBufferPointer(rebasing: line[fields[columns[column]]])) : nil
            }
            guard let card = number(0), let time = number(1), let rating = number(2), let state = number(3) else {
                throw ItemBuilder.CSVProblem(line: lineNumber, message: "expected card_id, review_time, review_rating and review_state as numbers")
            }
            guard (0...4).contains(rating) else {
                throw ItemBuilder.CSVProblem(line: lineNumber, message: "review_rating must be from 1 to 4, not \(rating)")
            }
            rows.append(Row(card: card, time: time, rating: Int(rating), state: Int(clamping: state)))
        }
        return rows
    }

    private static func header(_ line: UnsafeBufferPointer<UInt8>, _ fields: [Range<Int>], lineNumber: Int) throws(ItemBuilder.CSVProblem) -> [Int] {
        let names = fields.map { range in
            String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        var columns: [Int] = []
        for name in Self.columns {
            guard let index = names.firstIndex(of: name) else {
                throw ItemBuilder.CSVProblem(line: lineNumber, message: "the header has no \(name) column")
            }
            columns.append(index)
        }
        return columns
    }

    private static func fieldRanges(_ line: UnsafeBufferPointer<UInt8>, into ranges: inout [Range<Int>]) {
        ranges.removeAll(keepingCapacity: true)
        var start = 0
        for index in 0..<line.count where line[index] == UInt8(ascii: ",") {
            ranges.append(start..<index)
            start = index + 1
        }
        ranges.append(start..<line.count)
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// A whole number between optional blanks, with an optional sign; nil for anything else or
    /// one that does not fit in 64 bits.
    private static func integer(_ field: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0, end = field.count
        while index < end, isBlank(field[index]) { index += 1 }
        while end > index, isBlank(field[end - 1]) { end -= 1 }
        var negative = false
        if index < end, field[index] == UInt8(ascii: "-") || field[index] == UInt8(ascii: "+") {
            negative = field[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < end else { return nil }
        var value: Int64 = 0
        while index < end {
            let digit = Int64(field[index]) - Int64(UInt8(ascii: "0"))
            guard (0...9).contains(digit) else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
            index += 1
        }
        return value
    }
}
