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
        var items: [Item] = []
        var next = 0
        var cancelled = false
        var closed = false
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let readerEnded = DispatchSemaphore(value: 0)

    /// Called by the reader. Throws once the writer has given up, which stops the reader.
    func send(_ event: ImportEvent) throws {
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
        return state.withLock { state in
            let item = state.items[state.next]
            state.next += 1
            return item
        }
    }

    /// Called by the writer when it is done, whether or not it took everything: stops the
    /// reader at its next event and waits for it to end. Closing again does nothing.
    func close() {
        let first = state.withLock { state in
            defer { state.closed = true }
            state.cancelled = true
            return !state.closed
        }
        if first { readerEnded.wait() }
    }
}
