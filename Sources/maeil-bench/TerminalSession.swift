import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `maeil review` at a pseudo-terminal, as a person meets it: the time from starting the
/// program to the first card, from each answer's Enter to the next card, and from `q` to the
/// program's end. Answers are given as fast as the prompt takes them, so every wait is Maeil's.
struct TerminalSession {
    var firstCard: Double = 0
    var answers: [Double] = []
    var leaving: Double = 0
    var peakMegabytes: Double = 0

    static let cardPrompt = Array("⏎ show › ".utf8), ratingPrompt = Array("1–4 › ".utf8)

    static func review(collection: String, answers count: Int, environment: [String: String]) throws -> TerminalSession {
        var master: Int32 = -1, slave: Int32 = -1
        guard openPseudoTerminal(&master, &slave, nil, nil, nil) == 0 else { throw BenchFailure(description: "no pseudo-terminal") }
        defer { close(master) }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-peak-\(UUID().uuidString)").path
        defer { unlink(report) }
        var session = TerminalSession()
        let start = DispatchTime.now().uptimeNanoseconds
        let pid = try MaeilChild.spawn(["review", "--collection", collection],
                                       environment: environment.merging(["NO_COLOR": "1", "TERM": "xterm", "MAEIL_PEAK_MEMORY_TO": report]) { $1 }) { actions in
            for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_adddup2(&actions, slave, fd) }
        }
        close(slave)
        var screen = Screen(master: master)
        guard let first = try screen.wait(for: cardPrompt, since: start) else { throw BenchFailure(description: "maeil review showed no card") }
        session.firstCard = first
        var finished = false
        for _ in 0..<count {
            screen.type("\n")
            guard try screen.wait(for: ratingPrompt, since: DispatchTime.now().uptimeNanoseconds) != nil else { throw BenchFailure(description: "maeil ended at a card") }
            let answered = DispatchTime.now().uptimeNanoseconds
            // A rating is a single key: an Enter after it would reveal the next card unseen.
            screen.type("3")
            // The session ends by itself when no card is left.
            guard let next = try screen.wait(for: cardPrompt, since: answered) else {
                finished = true
                break
            }
            session.answers.append(next)
        }
        let leaving = DispatchTime.now().uptimeNanoseconds
        if !finished {
            screen.type("q\n")
            screen.drain()
        }
        guard MaeilChild.wait(pid) == 0 else { throw BenchFailure(description: "maeil review did not exit cleanly") }
        session.leaving = Double(DispatchTime.now().uptimeNanoseconds - leaving) / 1e9
        session.peakMegabytes = (try? String(contentsOfFile: report, encoding: .utf8)).flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
        return session
    }

    /// The answer latency at fraction `q` (0.5, 0.99) of the answers, in seconds.
    func answerQuantile(_ q: Double) -> Double {
        let sorted = answers.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
    }

    /// What the program has written to the terminal, read as it comes.
    struct Screen {
        let master: Int32
        var unread: [UInt8] = []

        init(master: Int32) { self.master = master }

        func type(_ text: String) {
            _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
        }

        /// Seconds from `since` until `marker` has appeared (what came before it is dropped);
        /// nil when the program closed the terminal first.
        mutating func wait(for marker: [UInt8], since: UInt64) throws -> Double? {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                if let end = Self.end(of: marker, in: unread) {
                    unread.removeFirst(end)
                    return Double(DispatchTime.now().uptimeNanoseconds - since) / 1e9
                }
                var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 30_000) > 0 else { throw BenchFailure(description: "maeil showed no \(String(decoding: marker, as: UTF8.self))") }
                let count = read(master, &buffer, buffer.count)
                guard count > 0 else { return nil }
                unread += buffer.prefix(count)
            }
        }

        /// Reads until the program closes the terminal.
        func drain() {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while read(master, &buffer, buffer.count) > 0 {}
        }

        static func end(of marker: [UInt8], in bytes: [UInt8]) -> Int? {
            guard bytes.count >= marker.count else { return nil }
            for start in 0...(bytes.count - marker.count) where bytes[start..<start + marker.count].elementsEqual(marker) {
                return start + marker.count
            }
            return nil
        }
    }
}
