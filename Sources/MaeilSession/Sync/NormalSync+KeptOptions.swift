import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore
import MaeilSync

/// What Maeil keeps of Anki's options, decks and config as they came, and the options changed
/// there that Maeil uses, taken from the merge.
extension NormalSync {
    /// What Maeil keeps of Anki's as it came (the collection's config, the rest of each deck,
    /// each preset's Anki options), as the merge holds it: an import would keep the same, and a
    /// later upload sends it. What Maeil uses of them is taken before (`takeChangedOptions`) or
    /// did not change (else the whole merge is taken), so only what Maeil keeps is written.
    static func takeKept(from merged: URL, writer: CollectionWriter) throws {
        try takeKept(try AnkiPackage.keptObjects(ofCollectionFile: merged), writer: writer)
    }

    static func takeKept(_ kept: AnkiPackage.KeptObjects, writer: CollectionWriter) throws {
        if let config = kept.config { try writer.setAnkiConfig(config) }
        for var deck in try writer.decks() {
            guard let id = deck.ankiID, let json = kept.decks[id], json != deck.ankiJSON else { continue }
            deck.ankiJSON = json
            try writer.update(deck)
        }
        let presets = try writer.presets()
        for preset in presets {
            guard let id = preset.id, let ankiID = ankiOptionsID(of: preset, among: presets), let json = kept.deckOptions[ankiID],
                  json != preset.ankiConfig else { continue }
            try writer.setAnkiConfig(json, ofPreset: id)
        }
    }

    /// The id a preset's options have in Anki: the one they came with, or for options made here
    /// an id of their own (`ownIDBase`), unless a preset from Anki holds that id. Nil for a
    /// preset not saved.
    static func ankiOptionsID(of preset: Preset, among presets: [Preset]) -> Int64? {
        if let id = preset.ankiConfigID { return id }
        guard let id = preset.id else { return nil }
        let own = AnkiPackageWriter.ownIDBase + id
        return presets.contains { $0.ankiConfigID == own } ? nil : own
    }

    /// Options the other side changed in what Maeil uses of them (Anki's deck options screen),
    /// taken into the preset that holds them here, as an import takes options Anki changed:
    /// settings and name as Anki's options give them. What Anki's options do not hold stays the
    /// preset's: its scheduler (FSRS is the collection's switch, and a change of it is taken with
    /// the whole merge), FSRS parameters Anki's SM-2 options leave out, the day's start, gating by
    /// unit, short-term steps and load balancing. Throws `SyncTakeProblem` (the whole merge is
    /// taken) where no preset here holds those options, or their name is another preset's (names
    /// are told apart without case, as the store tells them).
    static func takeChangedOptions(_ ankiIDs: Set<Int64>, kept: AnkiPackage.KeptObjects, writer: CollectionWriter) throws {
        guard !ankiIDs.isEmpty else { return }
        let presets = try writer.presets()
        for ankiID in ankiIDs.sorted() {
            guard let json = kept.deckOptions[ankiID], let stored = presets.first(where: { ankiOptionsID(of: $0, among: presets) == ankiID }),
                  var taken = AnkiPackage.preset(ankiConfig: json, fsrs: stored.scheduler.kind == .fsrs),
                  !presets.contains(where: { $0.id != stored.id && $0.name.lowercased() == taken.name.lowercased() }) else { throw SyncTakeProblem() }
            (taken.id, taken.scheduler.kind) = (stored.id, stored.scheduler.kind)
            if taken.name.isEmpty { taken.name = stored.name }
            (taken.rolloverHour, taken.curriculumGating) = (stored.rolloverHour, stored.curriculumGating)
            (taken.scheduler.shortTermWithSteps, taken.scheduler.loadBalancing) = (stored.scheduler.shortTermWithSteps, stored.scheduler.loadBalancing)
            if stored.scheduler.kind != .fsrs { taken.scheduler.fsrsParameters = stored.scheduler.fsrsParameters }
            _ = try writer.save(taken)
        }
    }
}
