import Foundation
import MaeilCore
import MaeilFocus
import MaeilSession
import MaeilStore

/// The session `review` starts: today's cards of some decks, or a practice round over the cards
/// missed most or the focus list, which leaves their schedule alone.
package enum ReviewStart {
    package enum Practice { case missed, focus }

    package static func session(_ deckIDs: [Int64]?, collection: Collection, practice: Practice?, fuzz: Bool,
                               context: CommandContext) throws -> ReviewSession {
        let environment = SessionEnvironment(now: context.environment.now, timeZone: context.environment.timeZone,
                                             maximumAnswerSeconds: context.environment.maximumAnswerSeconds, fuzz: fuzz)
        switch practice {
        case .missed:
            let scopes: [Int64?] = deckIDs.map { $0.map(Optional.some) } ?? [nil]
            let cards = try scopes.flatMap { try collection.mostMissed(deckID: $0, now: context.now, limit: 20) }.map(\.cardID)
            return ReviewSession(collection: collection, practicing: cards, environment: environment)
        case .focus:
            let cards = try FocusCards.cardIDs(collection, deckIDs: deckIDs, now: context.now, timeZone: environment.timeZone, limit: context.focusLimit)
            return ReviewSession(collection: collection, practicing: cards, environment: environment)
        case nil:
            return try ReviewSession(collection: collection, deckIDs: deckIDs, environment: environment)
        }
    }

    /// Drives the session at the console; the focus list follows the answers, re-exported every
    /// ten and at the end, and the write-ahead log is folded into the file every ten, both in the
    /// background (`SessionUpkeep`): the next card never waits for them.
    package static func run(_ session: ReviewSession, collection: Collection, context: CommandContext) throws {
        var answered = 0
        let config = context.config, variables = context.variables, timeZone = context.environment.timeZone
        let upkeep = SessionUpkeep { now in
            FocusExport.refresh(collection, config: config, variables: variables, now: now, timeZone: timeZone)
            collection.foldLog()
        }
        var keptUpAfter: Int?
        let loop = ReviewLoop(session: session, console: context.console, input: context.input, speaker: context.speaker,
                              speech: context.config.speech, mediaStubbed: context.speechIsStubbed) {
            answered += 1
            if answered % 10 == 0 {
                upkeep.request(at: context.now)
                keptUpAfter = answered
            }
        }
        defer { upkeep.finish() }
        try loop.run()
        // The last upkeep asked for already follows every answer when none came after it.
        if keptUpAfter != answered { upkeep.request(at: context.now) }
        upkeep.finish()
        context.backUpIfDue(collection)
    }
}
