import Foundation

extension DayClock {
    /// When a burial that ends at `until` by `old`'s hour ends by this clock's: a burial lasts
    /// to the start of the day after the one it was made on, and Anki counts that day by its
    /// number (it lifts a burial once a later day than its last unburied one has begun), so it
    /// is the same day's start by the new hour. Nil where that has passed at `now`: moved past
    /// the present, a card buried on a day that has now ended is back.
    public func burialEnd(_ until: Date, countedBy old: DayClock, now: Date) -> Date? {
        let ends = start(ofDay: old.dayNumber(of: until))
        return ends > now ? ends : nil
    }
}
