import Dispatch
import MaeilDecks
import Synchronization

/// Carries a reader's events from the thread that reads a file to the one that writes the
/// collection, so that writing starts with the first chunk instead of after the last.
final class ImportChannel: Sendable {
    enum Item: Sendable {
        case event(ImportEvent)
        case finished
        case failed(any Error)
    }

    private struct State {
        /// Sent and not yet taken: a taken item is let go at once.
        var items: [Item] = []
        var cancelled = false
        var closed = false
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    /// How many more events the reader may send before the writer takes one: a reader quicker
    /// than the writer waits instead of holding the whole file in the queue.
    private let room: DispatchSemaphore
    static let capacity = 8

    init(capacity: Int = ImportChannel.capacity) {
        // Made empty and then given its room: libdispatch traps when a semaphore is let go
        // below the value it was made with, as this one is when a writer gives up early.
        room = DispatchSemaphore(value: 0)
        for _ in 0..<capacity { room.signal() }
    }
    private let readerEnded = DispatchSemaphore(value: 0)

    /// Called by the reader. Throws once the writer has given up, which stops the reader.
    func send(_ event: ImportEvent) throws {
        if state.withLock({ $0.cancelled }) { throw CancellationError() }
        room.wait()
        let cancelled = state.withLock { state in
            if !state.cancelled { state.items.append(.event(event)) }
            return state.cancelled
        }
        if cancelled { throw CancellationError() }
        available.signal()
    }

    /// Called by the reader, last, however it ended.
    func finish(_ error: (any Error)?) {
        state.withLock { $0.items.append(error.map(Item.failed) ?? .finished) }
        available.signal()
        readerEnded.signal()
    }

    /// Called by the writer: the next item, waiting for it if need be.
    func next() -> Item {
        available.wait()
        defer { room.signal() }
        return state.withLock { $0.items.removeFirst() }
    }

    /// Called by the writer when it is done, whether or not it took everything: stops the
    /// reader at its next event and waits for it to end. Closing again does nothing.
    func close() {
        let first = state.withLock { state in
            defer { state.closed = true }
            state.cancelled = true
            return !state.closed
        }
        // A reader waiting for room wakes, sees the writer gone, and stops.
        room.signal()
        if first { readerEnded.wait() }
    }
}
