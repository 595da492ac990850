import Foundation
import MaeilCore
import MaeilFocus
import MaeilSession
import MaeilStore

/// Which reading plan, day and readings a `read` command means, and which deck a verse goes to.
package enum ReadingChoice {
    /// The plan asked for, or the only one.
    package static func plan(_ plan: String?, in collection: Collection) throws -> StoredReadingPlan {
        let plans = try collection.readingPlans()
        if let plan {
            let wanted = plan.lowercased()
            guard let found = plans.first(where: { $0.plan.key == wanted || $0.plan.name.lowercased() == wanted }) else {
                throw UserError("no reading plan '\(plan)'; the plans are: " + plans.map(\.plan.key).joined(separator: ", "))
            }
            return found
        }
        guard let first = plans.first else {
            let folder = BundledDecks.directory().map { ShellWords.quoted($0.appendingPathComponent("mcheyne-reading-plan").path) }
                ?? "Decks/mcheyne-reading-plan"
            throw UserError("there is no reading plan yet; `maeil import \(folder)` adds M'Cheyne's")
        }
        guard plans.count == 1 else {
            throw UserError("there are \(plans.count) reading plans; name one with --plan: " + plans.map(\.plan.key).joined(separator: ", "))
        }
        return first
    }

    package static func today(_ stored: StoredReadingPlan, day: Int?, in collection: Collection, now: Date, timeZone: TimeZone) throws -> TodayReading {
        if let day, day > stored.plan.days.count {
            throw UserError("\(stored.plan.name) has \(stored.plan.days.count) days")
        }
        guard let reading = try TodayReading.load(stored, from: collection, now: now, timeZone: timeZone, day: day) else {
            throw UserError("\(stored.plan.name) is read to its end: all \(stored.plan.days.count) days. --day N shows one again.")
        }
        return reading
    }

    /// The plan's part indices of the readings numbered as `read` shows them (a day's readings
    /// as shown leave out the parts with nothing that day); every shown part when none.
    package static func parts(_ numbers: [Int], of reading: TodayReading, in stored: StoredReadingPlan) throws -> [Int] {
        for number in numbers where !(1...reading.readings.count).contains(number) {
            throw UserError("there is no reading \(number); day \(reading.day) has \(reading.readings.count)")
        }
        let day = stored.plan.days[reading.day - 1]
        let shownParts = day.readings.indices.filter { !day.readings[$0].isEmpty }
        return numbers.isEmpty ? shownParts : numbers.map { shownParts[$0 - 1] }
    }

    /// The one verse deck, where `read verse` adds a verse when no deck is named.
    package static func verseDeck(in collection: Collection) throws -> Deck {
        let decks = try MemoryVerses.decks(in: collection)
        guard decks.count == 1 else {
            if decks.isEmpty {
                let folder = BundledDecks.directory().map { ShellWords.quoted($0.appendingPathComponent("memory-verses").path) } ?? "Decks/memory-verses"
                throw UserError("there is no verse deck yet; `maeil import \(folder)` adds Memory Verses (or give --deck)")
            }
            throw UserError("there are \(decks.count) verse decks; name one with --deck: " + decks.map { DeckNames.slug($0.name) }.joined(separator: ", "))
        }
        return decks[0]
    }

    package enum Marked {
        /// The day was read today already, and no day was named: nothing is marked twice.
        case alreadyRead
        /// The readings are marked; the day as it stands now.
        case marked(TodayReading?)
    }

    /// Marks `parts` of the day read, on today's study day.
    package static func markDone(_ stored: StoredReadingPlan, _ reading: TodayReading, parts: [Int], dayGiven: Bool, in collection: Collection,
                                now: Date, timeZone: TimeZone) throws -> Marked {
        if reading.finishedToday, !dayGiven { return .alreadyRead }
        try collection.markRead(planID: stored.id, day: reading.day, parts: parts, studyDay: TodayReading.studyDay(now: now, timeZone: timeZone), at: now)
        return .marked(try TodayReading.load(stored, from: collection, now: now, timeZone: timeZone, day: reading.day))
    }

    /// The verse's text: as given, or the World English Bible's.
    package static func passage(_ reference: String, text: String?) throws -> VerseText.Passage {
        if let text { return VerseText.given(reference: reference, text: text) }
        do {
            return try VerseText.lookup(reference)
        } catch VerseText.LookupError.notInstalled {
            throw UserError("looking up verses needs the World English Bible: \(VerseText.install); or give the text with --text")
        } catch VerseText.LookupError.noSuchPassage {
            throw UserError("the World English Bible has no verse \(reference); write it as Book chapter:verse, e.g. John 3:16")
        }
    }
}
