/// A card deleted in Anki whose answers Anki keeps, as a whole collection's file brings it: its
/// id there and its answers, oldest first.
package struct GoneCardDraft: Sendable, Equatable {
    package var ankiID: Int64
    package var history: [ReviewLogEntry]

    package init(ankiID: Int64, history: [ReviewLogEntry]) { (self.ankiID, self.history) = (ankiID, history) }
}
