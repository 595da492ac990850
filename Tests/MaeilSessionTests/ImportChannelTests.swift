import Foundation
import Synchronization
import Testing
@testable import MaeilDecks
@testable import MaeilSession

/// A value two threads share.
private final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    var current: Value { value.withLock { $0 } }
    func set(_ new: Value) { value.withLock { $0 = new } }
}

@Suite("The import channel")
struct ImportChannelTests {
    /// A reader quicker than the writer waits once `capacity` events are waiting, so a large
    /// file is never queued whole; every event still arrives, in order.
    @Test func aQuickReaderWaitsForTheWriter() throws {
        let channel = ImportChannel(capacity: 4)
        let sent = Shared(0)
        Thread.detachNewThread {
            do {
                for count in 1...50 {
                    try channel.send(.expecting(notes: count))
                    sent.set(count)
                }
                channel.finish(nil)
            } catch {
                channel.finish(error)
            }
        }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(sent.current == 4)
        var received: [Int] = []
        reading: while true {
            switch channel.next() {
            case .event(.expecting(let notes, _)): received.append(notes)
            case .finished: break reading
            default: Issue.record("unexpected item"); break reading
            }
        }
        #expect(received == Array(1...50))
        channel.close()
    }

    /// A writer that gives up while the reader waits for room stops the reader, and closing returns.
    @Test func closingStopsAWaitingReader() throws {
        let channel = ImportChannel(capacity: 2)
        let stopped = Shared(false)
        Thread.detachNewThread {
            do {
                for count in 1...10 { try channel.send(.expecting(notes: count)) }
                channel.finish(nil)
            } catch {
                stopped.set(error is CancellationError)
                channel.finish(error)
            }
        }
        Thread.sleep(forTimeInterval: 0.1)
        channel.close()
        #expect(stopped.current)
    }
}
