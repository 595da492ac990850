import Foundation
import MaeilCore

/// The local date of instants in one time zone, from a table of the zone's UTC offsets over a
/// span: asking Calendar for every row of a review log took a third as long as the fit.
struct LocalDates {
    /// Offsets (seconds east of UTC) and the second each starts at, ascending.
    private var starts: [Int64] = [.min]
    private var offsets: [Int]

    /// A table good for instants from `first` to `last` (Unix seconds).
    init(timeZone: TimeZone, from first: Int64, to last: Int64) {
        offsets = [timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(first)))]
        var after = Date(timeIntervalSince1970: TimeInterval(first))
        while let change = timeZone.nextDaylightSavingTimeTransition(after: after), change.timeIntervalSince1970 <= TimeInterval(last) {
            starts.append(Int64(change.timeIntervalSince1970.rounded(.up)))
            offsets.append(timeZone.secondsFromGMT(for: change))
            after = change
        }
    }

    /// Days since 1970-01-01 of the local date at `seconds` (Unix).
    func dayNumber(ofSeconds seconds: Int64) -> Int {
        // The last start at or before `seconds`.
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= seconds { low = middle } else { high = middle - 1 }
        }
        let local = seconds + Int64(offsets[low])
        return Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
    }
}
