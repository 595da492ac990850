import Foundation
import MaeilCore

/// A source read on one thread for a writer on another: the store's reading and the writing of
/// Anki's file each take about half of an export, and on two cores they overlap. The reading
/// stays on the thread that holds the read transaction (a database is used on its own thread
/// only); the writer asks for what it wants (a deck's notes, the gone cards, the note types)
/// and takes it in batches as the reader hands them on. Either side failing ends the other:
/// the writer's failure stops the reading at its next batch, the reader's is thrown where the
/// writer takes.
final class ExportPipe: @unchecked Sendable {
    enum Request {
        case notes(deck: Int, history: Bool)
        case goneCards
        case noteTypes
    }

    enum Item {
        case notes([(ExportNote, AnkiNoteType)])
        case goneCards([ExportGoneCard])
        /// The end of what one request asked for.
        case end
        case noteTypes([AnkiNoteType])
    }

    /// Thrown on the reader's side when the writer has stopped: nothing more is wanted.
    struct WriterStopped: Error {}

    /// Notes in a batch: one hand-over per batch, not per note, so the threads rarely wait on each other.
    static let batchSize = 64
    /// Batches waiting at most: the reader stays this far ahead, and no more is held.
    static let capacity = 8

    private let condition = NSCondition()
    private var requests: [Request] = []
    private var items: [Item] = []
    private var writerStopped = false
    private var readerError: (any Error)?

    // MARK: The writer's side

    func ask(_ request: Request) {
        condition.lock()
        requests.append(request)
        condition.broadcast()
        condition.unlock()
    }

    /// The next item, waiting for the reader; the reader's error where it failed.
    func take() throws -> Item {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty, readerError == nil { condition.wait() }
        if items.isEmpty, let readerError { throw readerError }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// The writer is done (or failed): the reader stops.
    func stopWriting() {
        condition.lock()
        writerStopped = true
        condition.broadcast()
        condition.unlock()
    }

    // MARK: The reader's side

    /// Answers the writer's requests from `source` until the writer stops. A failure is handed
    /// to the writer as well as thrown.
    func serve(_ source: inout some ExportSource) throws {
        do {
            while let request = nextRequest() {
                switch request {
                case .notes(let deck, let history):
                    try handOn(Item.notes) { yield in try source.forEachNote(ofDeck: deck, history: history) { try yield(($0, $1)) } }
                case .goneCards:
                    try handOn(Item.goneCards) { yield in try source.forEachGoneCard(yield) }
                case .noteTypes:
                    try put(.noteTypes(source.noteTypes))
                    continue
                }
                try put(.end)
            }
        } catch is WriterStopped {
            return
        } catch {
            condition.lock()
            readerError = error
            condition.broadcast()
            condition.unlock()
            throw error
        }
    }

    /// What `produce` yields, handed on `batchSize` at a time as `item`s.
    private func handOn<Element>(_ item: @escaping ([Element]) -> Item, _ produce: (_ yield: (Element) throws -> Void) throws -> Void) throws {
        var batch: [Element] = []
        batch.reserveCapacity(Self.batchSize)
        try produce { element in
            batch.append(element)
            if batch.count == Self.batchSize {
                try put(item(batch))
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try put(item(batch)) }
    }

    private func nextRequest() -> Request? {
        condition.lock()
        defer { condition.unlock() }
        while requests.isEmpty, !writerStopped { condition.wait() }
        guard !requests.isEmpty else { return nil }
        return requests.removeFirst()
    }

    private func put(_ item: Item) throws {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= Self.capacity, !writerStopped { condition.wait() }
        guard !writerStopped else { throw WriterStopped() }
        items.append(item)
        condition.broadcast()
    }
}

/// What the writer reads: what must be known before the first note, copied from the source
/// as it starts; notes, gone cards and note types asked of the reader through the pipe.
struct PipedExportSource: ExportSource, @unchecked Sendable {
    let pipe: ExportPipe
    let decks: [ExportDeck]
    let deckAnkiIDs: [String: Int64]
    let keptNoteIDs: Set<Int64>
    let keptCardIDs: Set<Int64>
    let earliestDate: Date?
    let limitRules: LimitRules?
    let ankiConfig: String?
    /// Media are read from the source itself once the writing is done (the writer never asks).
    var media: [(name: String, file: URL)] { [] }

    init(_ source: some ExportSource, pipe: ExportPipe) {
        self.pipe = pipe
        (decks, deckAnkiIDs, keptNoteIDs, keptCardIDs) = (source.decks, source.deckAnkiIDs, source.keptNoteIDs, source.keptCardIDs)
        (earliestDate, limitRules, ankiConfig) = (source.earliestDate, source.limitRules, source.ankiConfig)
    }

    var noteTypes: [AnkiNoteType] {
        pipe.ask(.noteTypes)
        // A failed reader has said so where the notes were taken; none is left to say it here.
        if case .noteTypes(let types)? = try? pipe.take() { return types }
        return []
    }

    mutating func forEachNote(ofDeck index: Int, history: Bool, _ body: (ExportNote, AnkiNoteType) throws -> Void) throws {
        pipe.ask(.notes(deck: index, history: history))
        while case .notes(let batch) = try pipe.take() {
            for (note, type) in batch { try body(note, type) }
        }
    }

    mutating func forEachGoneCard(_ body: (ExportGoneCard) throws -> Void) throws {
        pipe.ask(.goneCards)
        while case .goneCards(let batch) = try pipe.take() {
            for gone in batch { try body(gone) }
        }
    }
}
