/// Errors the store reports: what is wrong, in words about the collection. What to run about
/// it is the command line's to say; the store knows nothing of commands and flags.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case newerSchema(path: String, unknown: [String])
    case notACollection(path: String, reason: String)
    case noSuchDeck(String)
    case noSuchCard(Int64)
    case noSuchNote(Int64)
    case missingPreset(Int64)
    case missingDeck(Int64)
    case deckExists(String)
    case deckNameEmpty
    case cardChanged(Int64)
    case guidTaken(String)
    case nothingToUndo
    case answeredSince(cardID: Int64)
    case nothingToRestore(logID: Int64)

    public var description: String {
        switch self {
        case .newerSchema(let path, let unknown):
            "\(path) was written by a newer Maeil (schema \(unknown.joined(separator: ", ")))"
        case .notACollection(let path, let reason):
            "\(path) is not a Maeil collection (\(reason))"
        case .noSuchDeck(let name):
            "no deck named “\(name)”"
        case .noSuchCard(let id):
            "no card \(id)"
        case .noSuchNote(let id):
            "no note \(id)"
        case .missingPreset(let id):
            "preset \(id) is missing from the collection"
        case .missingDeck(let id):
            "deck \(id) is missing from the collection"
        case .deckExists(let name):
            "a deck named “\(name)” already exists"
        case .deckNameEmpty:
            "a deck needs a name"
        case .cardChanged(let id):
            "card \(id) changed while it was shown (another Maeil running?); it will be shown again"
        case .guidTaken(let guid):
            "a note with the id “\(guid)” is already in the collection"
        case .nothingToUndo:
            "nothing to undo"
        case .answeredSince(let cardID):
            "card \(cardID) was answered again since; undo that first"
        case .nothingToRestore(let logID):
            "log entry \(logID) has no earlier state to restore"
        }
    }
}
