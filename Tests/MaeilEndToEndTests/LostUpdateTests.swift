import Foundation
import MaeilCore
import MaeilStore
import Testing
import MaeilTestSupport

/// Read-modify-writes raced by other processes, many times: a deck switched to FSRS while a
/// review answers its cards, two option changes at once. Nothing acknowledged is lost.
@Suite("Races between processes: no lost update", .serialized)
struct LostUpdateTests {
    init() {
        signal(SIGPIPE, SIG_IGN)
    }

    static func start(_ arguments: [String], input: String? = nil) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = Binary.url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        return (process, stdout)
    }

    /// Every card's log is one chain: each row starts from the state the row before left, and
    /// the card is in the state the last row left. An update lost to a stale write breaks it.
    static func brokenChains(_ collection: Collection) throws -> [String] {
        let cards = try collection.read { try Int64.fetchAll($0, sql: "SELECT DISTINCT card_id FROM review_log") }
        var broken: [String] = []
        for cardID in cards {
            let log = try collection.reviewLog(cardID: cardID)
            for (earlier, later) in zip(log, log.dropFirst()) where earlier.entry.after != later.entry.before {
                broken.append("card \(cardID): row \(later.id) starts from another state than row \(earlier.id) left")
            }
            // A conversion to FSRS only adds a memory: anything else it changed was written
            // from a stale read (an answer undone).
            for row in log where row.entry.kind == .manual {
                var before = row.entry.before, after = row.entry.after
                before?.stability = nil; before?.difficulty = nil
                after?.stability = nil; after?.difficulty = nil
                if before != after { broken.append("card \(cardID): conversion row \(row.id) changed more than its memory") }
            }
            if let last = log.last?.entry.after, try collection.card(id: cardID).state != last {
                broken.append("card \(cardID): not in the state its last row left")
            }
        }
        return broken
    }

    /// A review answers new cards of an Anki SM-2 deck while another process switches the deck
    /// to FSRS: every acknowledged answer is in the log, no card's history has a gap, and each
    /// answer committed after the switch was scheduled by FSRS (the session noticed).
    @Test func switchingToFSRSDuringAReviewLosesNoAnswer() throws {
        let template = try Fixture.wordCollection(count: 150)
        let setup = try Collection(path: template)
        let deck = try setup.decks()[0]
        var preset = try setup.preset(id: deck.presetID)
        preset.scheduler = SchedulerSettings(kind: .ankiSM2)
        try setup.save(preset)
        var generator = SystemRandomNumberGenerator()
        var acknowledged = 0, answeredAfterSwitch = 0, converted = 0
        for round in 0..<100 {
            let path = Fixture.temporaryPath("round\(round)")
            try FileManager.default.copyItem(atPath: template, toPath: path)
            let (review, output) = try Self.start(["review", "--collection", path], input: String(repeating: "3\n", count: 400))
            usleep(UInt32.random(in: 5_000...60_000, using: &generator))
            let (change, _) = try Self.start(["deck", "Words", "set", "scheduler", "fsrs", "--collection", path])
            change.waitUntilExit()
            #expect(change.terminationStatus == 0, "round \(round)")
            usleep(UInt32.random(in: 0...30_000, using: &generator))
            kill(review.processIdentifier, SIGKILL)
            review.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let acknowledgedHere = printed.split(separator: "\n").filter { $0.hasPrefix("good") }.count
            acknowledged += acknowledgedHere

            let collection = try Collection(path: path)
            let answers = try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0") ?? 0 }
            #expect(answers >= acknowledgedHere && answers <= acknowledgedHere + 1, "round \(round): \(answers) logged, \(acknowledgedHere) acknowledged")
            let broken = try Self.brokenChains(collection)
            #expect(broken.isEmpty, "round \(round): \(broken.prefix(3))")
            // After a card's conversion, its answers are FSRS's.
            let stale = try collection.read {
                try Int.fetchOne($0, sql: """
                    SELECT count(*) FROM review_log a JOIN review_log m ON m.card_id = a.card_id AND m.kind = ? AND a.id > m.id
                    WHERE a.kind = 0 AND a.scheduler != 'fsrs'
                    """, arguments: [ReviewLogEntry.Kind.manual.rawValue]) ?? 0
            }
            #expect(stale == 0, "round \(round): \(stale) answers scheduled by SM-2 after the switch")
            converted += try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = ?", arguments: [ReviewLogEntry.Kind.manual.rawValue]) ?? 0 }
            answeredAfterSwitch += try collection.read {
                try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0 AND scheduler = 'fsrs'") ?? 0
            }
        }
        // The race has to have happened: answers on both sides of the switch.
        #expect(converted > 500 && answeredAfterSwitch > 100, "converted \(converted), answered after \(answeredAfterSwitch)")
        print("lost updates: 100 FSRS switches during reviews, \(acknowledged) answers acknowledged, \(converted) cards converted, \(answeredAfterSwitch) answers by FSRS after")
    }

    /// Two processes change two options of the same preset at once: both changes stay.
    @Test func twoOptionChangesAtOnceBothStay() throws {
        let path = try Fixture.wordCollection(count: 10)
        for round in 0..<100 {
            let newPerDay = 30 + round, reviewsPerDay = 300 + round
            let (first, _) = try Self.start(["deck", "Words", "set", "new_per_day", "\(newPerDay)", "--collection", path])
            let (second, _) = try Self.start(["deck", "Words", "set", "reviews_per_day", "\(reviewsPerDay)", "--collection", path])
            first.waitUntilExit()
            second.waitUntilExit()
            #expect(first.terminationStatus == 0 && second.terminationStatus == 0, "round \(round)")
            let collection = try Collection(path: path)
            let preset = try collection.preset(id: try collection.decks()[0].presetID)
            #expect(preset.newPerDay == newPerDay && preset.reviewsPerDay == reviewsPerDay,
                    "round \(round): new \(preset.newPerDay) (set \(newPerDay)), reviews \(preset.reviewsPerDay) (set \(reviewsPerDay))")
        }
    }
}
