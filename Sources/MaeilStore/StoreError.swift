/// Errors the store reports, each worded so a person knows what to do next.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case newerSchema(path: String, unknown: [String])
    case notACollection(path: String, reason: String)
    case noSuchDeck(String)
    case noSuchCard(Int64)
    case noSuchNote(Int64)
    case deckExists(String)
    case cardChanged(Int64)
    case guidTaken(String)
    case nothingToUndo
    case invalid(String)

    public var description: String {
        switch self {
        case .newerSchema(let path, let unknown):
            "\(path) was written by a newer Maeil (schema \(unknown.joined(separator: ", "))); upgrade Maeil to open it"
        case .notACollection(let path, let reason):
            "\(path) is not a Maeil collection (\(reason)); pass another --collection or move the file away"
        case .noSuchDeck(let name):
            "no deck named “\(name)”; `maeil decks` lists them"
        case .noSuchCard(let id):
            "no card \(id)"
        case .noSuchNote(let id):
            "no note \(id)"
        case .deckExists(let name):
            "a deck named “\(name)” already exists"
        case .cardChanged(let id):
            "card \(id) changed while it was shown (another Maeil running?); it will be shown again"
        case .guidTaken(let guid):
            "a note with the id “\(guid)” is already in the collection"
        case .nothingToUndo:
            "nothing to undo"
        case .invalid(let message):
            message
        }
    }
}
