import Foundation
import Testing
import MaeilStore

@Suite("Reliability: killed sessions and concurrent processes", .serialized)
struct ReliabilityTests {
    init() {
        // A killed child leaves our end of its stdin pipe dangling; writes must not kill us.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Kills a scripted review with SIGKILL at random moments, many times. Every answer the
    /// binary acknowledged must be in the log afterwards, the file must pass SQLite's integrity
    /// check, and every card's state must agree with its log: nothing half-written.
    @Test func sigkillNeverLosesAnAcknowledgedAnswer() throws {
        let path = try Fixtures.collection(count: 5000)
        var generator = SystemRandomNumberGenerator()
        var acknowledged = 0
        var kills = 0
        for round in 0..<30 {
            let process = Process()
            process.executableURL = Binary.url
            process.arguments = ["review", "--collection", path]
            process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
            let stdin = Pipe(), stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Enough answers queued to keep it busy until the kill.
            stdin.fileHandleForWriting.write(Data(String(repeating: "3\n", count: 2000).utf8))
            usleep(UInt32.random(in: 20_000...(round % 3 == 0 ? 400_000 : 150_000), using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            kills += process.terminationReason == .uncaughtSignal ? 1 : 0
            let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            acknowledged += output.split(separator: "\n").filter { $0.hasPrefix("good") }.count
            try? stdin.fileHandleForWriting.close()

            let collection = try Collection(path: path)
            let report = try collection.check(repair: false, now: Date())
            #expect(report.integrity == "ok", "round \(round)")
            #expect(report.problems.isEmpty, "round \(round): \(report.problems.prefix(3))")
            let logged = try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0") ?? 0 }
            // Killed between commit and print, an answer can be logged but not acknowledged: at most one per kill.
            #expect(logged >= acknowledged, "round \(round): \(logged) logged, \(acknowledged) acknowledged")
            #expect(logged <= acknowledged + kills, "round \(round)")
        }
        #expect(kills >= 25)
        #expect(acknowledged > 100, "the sessions answered too little to mean anything: \(acknowledged)")
    }

    /// A review session and other commands on one collection at once never fail with
    /// "database is locked"; two sessions answering at once never both answer one card.
    @Test func twoProcessesNeverSeeDatabaseIsLocked() throws {
        let path = try Fixtures.collection(count: 300)
        let group = DispatchGroup()
        nonisolated(unsafe) var results: [Binary.Result] = []
        let lock = NSLock()
        for worker in 0..<4 {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                for _ in 0..<(worker < 2 ? 1 : 15) {
                    let arguments = worker < 2 ? ["review", "--collection", path] : (worker == 2 ? ["stats", "--collection", path] : ["decks", "--json", "--collection", path])
                    let result = try? Binary.run(arguments, input: worker < 2 ? String(repeating: "3\n", count: 250) : "")
                    lock.withLock { results.append(result ?? Binary.Result(status: -1, stdout: "", stderr: "did not run")) }
                }
            }
        }
        group.wait()
        for result in results {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("locked"))
        }
        let collection = try Collection(path: path)
        #expect(try collection.check(repair: false, now: Date()).isHealthy)
        // Each card answered at most once per state: no answer was applied to a stale state.
        let duplicates = try collection.read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM (SELECT card_id, b_reps FROM review_log WHERE kind = 0 GROUP BY card_id, b_reps HAVING count(*) > 1)
                """) ?? 0
        }
        #expect(duplicates == 0)
    }
}
