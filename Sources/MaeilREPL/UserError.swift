import Foundation
import MaeilStore

/// An error a person can act on: printed as one line, exit status 1.
package struct UserError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

extension StoreError {
    /// The store says what is wrong; the command line adds what to run about it.
    package var advice: String? {
        switch self {
        case .newerSchema: "upgrade Maeil to open it"
        case .notACollection: "pass another --collection, or move the file away"
        case .noSuchDeck: "`maeil decks` lists them"
        case .missingPreset, .missingDeck: "run `maeil check --repair`"
        case .noSuchNote: "`maeil find TEXT` gives note numbers"
        case .damaged: "`maeil check --repair` recovers what it can into a new file beside it"
        case .busy: "another Maeil (or Anki's sync) may be writing to it; try again when it is done"
        case .readOnly: "make the file and its folder writable, or pass another --collection"
        case .readOnlyPlace: "reads work there (decks, stats, find, show, export); to study, copy the file somewhere writable"
        case .diskFull: "free some space and try again"
        case .cannotOpen: "pass the path of a collection file with --collection"
        default: nil
        }
    }

    package var userError: UserError { UserError(advice.map { "\(description); \($0)" } ?? description) }
}
