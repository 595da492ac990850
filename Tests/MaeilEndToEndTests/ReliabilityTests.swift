import Foundation
import Testing
import MaeilCore
import MaeilStore
import MaeilTestSupport

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
        // More cards than 80 sessions can answer before their kills: at 0.2 ms an answer a quiet
        // machine answered all of 5,000 cards' steps within 20 rounds, and the later sessions,
        // finding nothing due, ended before their kill (64–69 kills of 80).
        let path = try Fixture.wordCollection(count: 30_000, newPerDay: 30_000)
        var generator = SystemRandomNumberGenerator()
        var acknowledged = 0
        var kills = 0
        // 80 rounds, and more (up to 240) while too few answers were acknowledged to mean
        // anything: on a loaded machine a session spends most of its time before its kill starting.
        var rounds = 0
        for round in 0..<240 where round < 80 || acknowledged <= 200 {
            rounds += 1
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
            stdin.fileHandleForWriting.write(Data(String(repeating: "3\n", count: 4000).utf8))
            // One round in three is killed at any moment from its start; the others once they
            // answer (their first output), so a slow start on a loaded machine leaves them time to.
            var output = Data()
            if round % 3 == 0 {
                usleep(UInt32.random(in: 20_000...400_000, using: &generator))
            } else {
                output = stdout.fileHandleForReading.availableData
                usleep(UInt32.random(in: 5_000...100_000, using: &generator))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            kills += process.terminationReason == .uncaughtSignal ? 1 : 0
            output += stdout.fileHandleForReading.readDataToEndOfFile()
            acknowledged += String(decoding: output, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("good") }.count
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
        #expect(kills * 8 >= rounds * 7, "\(kills) of \(rounds) sessions killed")
        #expect(acknowledged > 200, "the sessions answered too little to mean anything: \(acknowledged) in \(rounds) rounds")
        print("reliability: \(rounds) piped reviews, \(kills) killed with SIGKILL, \(acknowledged) answers acknowledged, all of them in the log")
    }

    /// Kills imports of 5,000 notes at random moments: each import is all there or not there
    /// at all, the file stays sound, and no staging folder is left.
    @Test func sigkillDuringAnImportLeavesAllOrNothing() throws {
        let folder = Fixture.temporaryDirectory()
        let path = folder.appendingPathComponent("c.sqlite").path
        _ = try Collection(path: path)
        var generator = SystemRandomNumberGenerator()
        var kills = 0, completed = 0
        for round in 0..<40 {
            let file = folder.appendingPathComponent("round\(round).txt")
            try Data(("#separator:tab\n#deck:Round \(round)\n" + (0..<5000).map { "단어 \(round) \($0)\tword \($0)\n" }.joined()).utf8).write(to: file)
            let before = try Collection(path: path).counts().notes
            let process = Process()
            process.executableURL = Binary.url
            process.arguments = ["import", "--collection", path, file.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 5_000...120_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            kills += process.terminationReason == .uncaughtSignal ? 1 : 0
            let collection = try Collection(path: path)
            let after = try collection.counts().notes
            #expect(after == before || after == before + 5000, "round \(round): \(before) → \(after)")
            completed += after == before + 5000 ? 1 : 0
            let report = try collection.check(repair: false, now: Date())
            #expect(report.isHealthy, "round \(round): \(report.integrity) \(report.problems.prefix(3))")
        }
        #expect(kills >= 25, "\(kills) of 40 imports were killed before they finished")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".media-import") }.isEmpty)
        print("reliability: 40 imports of 5,000 notes, \(kills) killed with SIGKILL, \(completed) finished first; every one all or nothing")
    }

    /// Kills imports of a package with 600 pictures at random moments, around the commit
    /// most of all: every note visible has its picture in the media folder, and the staging
    /// folders of killed imports are gone once the next import starts.
    @Test func aKilledImportNeverLeavesANoteWithoutItsPicture() throws {
        let folder = Fixture.temporaryDirectory()
        let source = folder.appendingPathComponent("source.sqlite").path
        let collection = try Collection(path: source)
        let media = folder.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try collection.batch(now: Date()) { writer in
            let deck = try writer.createDeck(name: "Pictures", kind: .word, templates: [CardTemplate(name: "see", front: ["picture"], back: ["word"])],
                                             preset: Preset(name: "Pictures", burySiblings: false))
            for index in 0..<600 {
                try Data("picture \(index) ".utf8 + Data(count: 2000)).write(to: media.appendingPathComponent("p\(index).png"))
                _ = try writer.addNote(NoteDraft(guid: "p\(index)", kind: .word, fields: [
                    NoteField(name: "picture", value: "<img src=\"p\(index).png\">"), NoteField(name: "word", value: "word \(index)"),
                ], position: index, html: true), deck: deck)
            }
        }
        let package = folder.appendingPathComponent("pictures.apkg").path
        let exported = try Binary.run(["export", "--collection", source, "--out", package])
        #expect(exported.status == 0, "\(exported.stderr)")
        var generator = SystemRandomNumberGenerator()
        var kills = 0, complete = 0, partial = 0
        for round in 0..<100 {
            let target = Fixture.temporaryDirectory()
            let path = target.appendingPathComponent("c.sqlite").path
            _ = try Collection(path: path)
            let process = Process()
            process.executableURL = Binary.url
            process.arguments = ["import", "--collection", path, package]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Killed once the staging folder is there (while pictures are written) or, in
            // every other round, once the media folder is (the moment before the commit),
            // each after a random few milliseconds; every tenth round runs to its end.
            let media = target.appendingPathComponent("media").path
            let deadline = Date().addingTimeInterval(20)
            func staging() -> Bool { ((try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? []).contains { $0.hasPrefix(".media-import") } }
            while process.isRunning, Date() < deadline, !(round % 2 == 0 ? staging() : FileManager.default.fileExists(atPath: media)) {
                usleep(200)
            }
            if round % 10 != 9 {
                usleep(UInt32.random(in: 0...(round % 2 == 0 ? 30_000 : 3_000), using: &generator))
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            kills += process.terminationReason == .uncaughtSignal ? 1 : 0
            let imported = try Collection(path: path)
            let pictures = try imported.read { try String.fetchAll($0, sql: "SELECT field_values FROM note") }
            let missing = pictures.filter { value in
                guard let range = value.range(of: #"p\d+\.png"#, options: .regularExpression) else { return false }
                return !FileManager.default.fileExists(atPath: target.appendingPathComponent("media").appendingPathComponent(String(value[range])).path)
            }
            #expect(missing.isEmpty, "round \(round): \(missing.count) of \(pictures.count) notes without their picture")
            #expect(pictures.count == 0 || pictures.count == 600, "round \(round): \(pictures.count) notes")
            complete += pictures.count == 600 ? 1 : 0
            partial += pictures.isEmpty && FileManager.default.fileExists(atPath: target.appendingPathComponent("media").path) ? 1 : 0
            // The next import clears what a killed one left.
            let next = try Binary.run(["import", "--collection", path, "--dry-run", package])
            #expect(next.status == 0)
            let left = try FileManager.default.contentsOfDirectory(atPath: target.path).filter { $0.hasPrefix(".media-import") }
            #expect(left.isEmpty, "round \(round): \(left)")
        }
        #expect(kills >= 60 && complete >= 10 && partial >= 5, "\(kills) killed, \(complete) complete, \(partial) with files and no notes")
        print("reliability: 100 imports of 600 pictures, \(kills) killed with SIGKILL, \(complete) complete, \(partial) killed with files moved in and no notes; no note without its picture")
    }

    /// What a killed export or focus write leaves (named with its process id) is removed by
    /// the next one; what a running process is writing is left alone.
    @Test func leftoversOfKilledWritersGoAtTheNextWrite() throws {
        let path = try Fixture.wordCollection(count: 3)
        let folder = Fixture.temporaryDirectory()
        // A process id that no longer runs.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = gone.processIdentifier, alive = getpid()
        let temporary = FileManager.default.temporaryDirectory
        var leftovers = [temporary.appendingPathComponent("maeil-export-\(dead)-A"),
                         folder.appendingPathComponent(".words.apkg.\(dead)-B.partial"),
                         folder.appendingPathComponent(".focus.json.\(dead)-C.tmp")]
        let working = [temporary.appendingPathComponent("maeil-export-\(alive)-D"), folder.appendingPathComponent(".words.apkg.\(alive)-E.partial"),
                       folder.appendingPathComponent(".focus.json.\(alive)-F.tmp")]
        for file in leftovers + working { try Data("x".utf8).write(to: file) }
        defer { for file in working { try? FileManager.default.removeItem(at: file) } }
        #expect(try Binary.run(["export", "--collection", path, "--out", folder.appendingPathComponent("words.apkg").path]).status == 0)
        #expect(try Binary.run(["focus", "export", "--collection", path, "--out", folder.appendingPathComponent("focus.json").path]).status == 0)
        leftovers = leftovers.filter { FileManager.default.fileExists(atPath: $0.path) }
        #expect(leftovers.isEmpty, "left: \(leftovers.map(\.lastPathComponent))")
        #expect(working.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
        // And the exports themselves leave nothing beside what they wrote.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") || !working.map(\.lastPathComponent).contains($0) }.sorted()
                == ["focus.json", "words.apkg"])
    }

    /// Backups killed at random moments never leave a half backup among the listed ones, and
    /// the next backup removes what a killed one wrote; a restore with a reader open in another
    /// process gives that reader the restored contents, and the collection as it was is kept.
    @Test func backupsAreWholeAndRestoreKeepsWhatItReplaces() throws {
        let path = try Fixture.wordCollection(count: 20_000)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("backups")
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        // How long one takes here at the least, so that the kills land inside one: a run that
        // also quick-checks the file (one no checked Maeil closed as it is) takes longer.
        let seconds = try (0..<3).map { _ throws -> TimeInterval in
            let started = Date()
            #expect(try Binary.run(["backup", "--collection", path]).status == 0)
            return Date().timeIntervalSince(started)
        }.min()!
        for round in 0..<20 {
            let process = Process()
            process.executableURL = Binary.url
            process.arguments = ["backup", "--collection", path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(Double.random(in: 0.1...0.9, using: &generator) * seconds * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            kills += process.terminationReason == .uncaughtSignal ? 1 : 0
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(".sqlite") && !name.hasPrefix(".") {
                let backup = try Collection(path: folder.appendingPathComponent(name).path, readOnly: true)
                #expect(try backup.check(repair: false, now: Date()).isHealthy, "round \(round): \(name)")
                #expect(try backup.counts().notes == 20_000, "round \(round): \(name)")
            }
        }
        #expect(kills >= 10, "\(kills) of 20 backups were killed")
        let made = try Binary.run(["backup", "--collection", path])
        #expect(made.status == 0 && made.stdout.contains("20000 notes"), "\(made.stdout)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".backup-") }
        #expect(left.isEmpty, "a killed backup's file stayed: \(left)")

        // Star a note, then restore the newest backup while another connection reads.
        #expect(try Binary.run(["star", "1", "--collection", path]).status == 0)
        let reader = try Collection(path: path, readOnly: true)
        #expect(try reader.cards(noteID: 1).allSatisfy(\.starred))
        let restored = try Binary.run(["restore", "1", "--collection", path])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(try reader.cards(noteID: 1).allSatisfy { !$0.starred }, "the reader sees the restored collection")
        #expect(try reader.check(repair: false, now: Date()).isHealthy)
        // The starred collection was backed up first: restoring that puts the star back.
        #expect(try Binary.run(["restore", "1", "--collection", path]).status == 0)
        #expect(try reader.cards(noteID: 1).allSatisfy(\.starred))
        let list = try Binary.run(["backup", "--list", "--collection", path]).stdout
        #expect(list.split(separator: "\n").first == "#  date              notes  cards  reviews  size", "\(list)")
    }

    /// On a read-only file system (a read-only bind mount; the suite runs as root, as CI does)
    /// every command that only reads works, and one that writes says why it cannot.
    @Test func readsWorkOnAReadOnlyFileSystem() throws {
        let source = try Fixture.wordCollection(count: 20)
        // The last process to close the file takes its write-ahead log in: nothing is left there.
        #expect(try Binary.run(["review", "--collection", source], input: "\n4\n").status == 0)
        let mount = Fixture.temporaryDirectory().appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        let folder = URL(fileURLWithPath: source).deletingLastPathComponent().path
        let bound = try Binary.runProgram("/bin/mount", ["--bind", folder, mount.path])
        try #require(bound.status == 0, "a read-only bind mount needs root: \(bound.stderr)")
        defer { _ = try? Binary.runProgram("/bin/umount", [mount.path]) }
        #expect(try Binary.runProgram("/bin/mount", ["-o", "remount,bind,ro", mount.path]).status == 0)
        let path = mount.appendingPathComponent("collection.sqlite").path
        for command in [["decks"], ["stats"], ["find", "단어1"], ["show", "1"], ["info", "1"], ["deck", "Words"], ["backup", "--list"]] {
            let result = try Binary.run(command + ["--collection", path])
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let star = try Binary.run(["star", "1", "--collection", path])
        #expect(star.status == 1)
        #expect(star.stderr.contains("it is on a read-only file system; reads work there"), "\(star.stderr)")
        // The prompt too (issue 27, point 4): it opens for reading, says so once, and its reads
        // work; `review` and `star` say why they cannot; leaving backs nothing up.
        let backups = try? FileManager.default.contentsOfDirectory(atPath: mount.appendingPathComponent("backups").path)
        let prompt = try Binary.run(["--collection", path], input: "decks\nfind tag:none\nreview\nstar 1\nquit\n")
        let readOnly = "maeil: cannot write to \(path): it is on a read-only file system; reads work there (decks, stats, find, show, export); "
            + "to study, copy the file somewhere writable"
        #expect(prompt.status == 0, "\(prompt.stderr)")
        let lines = prompt.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0 == readOnly }.count == 3 && lines.first == readOnly, "\(prompt.stdout)")
        #expect(lines.contains { $0.hasPrefix("Words ") } && lines.contains { $0.contains("단어1") }, "\(prompt.stdout)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: mount.appendingPathComponent("backups").path)) == backups, "no backup on leaving")
    }

    /// A collection this user may only read (mode 444, run as `nobody`; the suite runs as root,
    /// as CI does), issue 27, point 4: reads work and leave no -wal or -shm behind (they took the
    /// file's read-only mode and refused every write once the file was writable again); a write
    /// says why; once the file is writable, writes work, even past sidecars an older build left.
    @Test func aFileThisUserMayOnlyReadIsReadAndLeftAsItWas() throws {
        let folder = Fixture.temporaryDirectory()
        let path = folder.appendingPathComponent("collection.sqlite").path
        try FileManager.default.copyItem(atPath: try Fixture.wordCollection(count: 20), toPath: path)
        func asNobody(_ arguments: [String], input: String = "") throws -> Binary.Result {
            try Binary.runProgram("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "env", "HOME=\(folder.path)",
                                                       "XDG_DATA_HOME=\(folder.path)", "XDG_STATE_HOME=\(folder.path)", "XDG_CONFIG_HOME=\(folder.path)",
                                                       "MAEIL_SPEECH=stub", Binary.url.path] + arguments + ["--collection", path], input: input)
        }
        func sidecars() -> [String] { ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: path + $0) } }
        try #require(Binary.runProgram("/bin/chown", ["-R", "nobody:nogroup", folder.path]).status == 0, "needs root")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        #expect(try asNobody(["decks"]).status == 0)
        let prompt = try asNobody([], input: "decks\nstar 1\nquit\n")
        #expect(prompt.status == 0 && prompt.stdout.contains("this user may not write the file; reads work there"), "\(prompt.stdout)\(prompt.stderr)")
        let star = try asNobody(["star", "1"])
        #expect(star.status == 1 && star.stderr.contains("this user may not write the file"), "\(star.stderr)")
        #expect(sidecars().isEmpty, "reading left \(sidecars())")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(try asNobody(["star", "1"]).status == 0)
        // Sidecars with the read-only mode an older build's reader gave them.
        for suffix in ["-wal", "-shm"] {
            _ = FileManager.default.createFile(atPath: path + suffix, contents: nil, attributes: [.posixPermissions: 0o444])
        }
        _ = try Binary.runProgram("/bin/chown", ["nobody:nogroup", path + "-wal", path + "-shm"])
        let unstar = try asNobody(["unstar", "1"])
        #expect(unstar.status == 0, "\(unstar.stderr)")
    }

    /// A full disk (a 1 MB tmpfs filled to the last block; the suite runs as root), issue 27,
    /// point 4: reads work, the prompt too; a write says the disk is full, changes nothing, and
    /// works once there is room again.
    @Test func aFullDiskIsSaidAndReadsWork() throws {
        let mount = Fixture.temporaryDirectory().appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        try #require(Binary.runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mount.path]).status == 0, "needs root")
        defer { _ = try? Binary.runProgram("/bin/umount", [mount.path]) }
        let path = mount.appendingPathComponent("collection.sqlite").path
        try FileManager.default.copyItem(atPath: try Fixture.wordCollection(count: 20), toPath: path)
        let filler = mount.appendingPathComponent("filler").path
        _ = try Binary.runProgram("/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=4k", "count=1000"])
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try Binary.run(["decks", "--collection", path]).stdout.contains("Words"))
        let star = try Binary.run(["star", "1", "--collection", path])
        #expect(star.status == 1 && star.stderr.contains("is full; nothing was changed; free some space and try again"), "\(star.stderr)")
        let prompt = try Binary.run(["--collection", path], input: "decks\nstar 1\nquit\n")
        #expect(prompt.status == 0 && prompt.stdout.contains("Words ") && prompt.stdout.contains("is full; nothing was changed"), "\(prompt.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "nothing was written")
        try FileManager.default.removeItem(atPath: filler)
        #expect(try Binary.run(["star", "1", "--collection", path]).status == 0)
    }

    /// Another process in the middle of a long write: commands that only read go on at once
    /// (they never wait for it), and one that writes says it is waiting, then does its work.
    @Test func readersNeverWaitForAWriter() throws {
        let path = try Fixture.wordCollection(count: 200)
        let collection = try Collection(path: path)
        let waiting = Process()
        let waitingErrors = Pipe()
        var said = ""
        try collection.transaction { db in
            try db.execute(sql: "UPDATE meta SET value = value WHERE key = 'seed'")
            for arguments in [["decks"], ["stats"], ["find", "단어1"], ["show", "1"], ["info", "1"], ["missed"], ["focus"],
                              ["check"], ["deck", "Words"], ["export", "--out", path + ".txt"]] {
                let result = try Binary.run(arguments + ["--collection", path])
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(result.stderr.isEmpty, "\(arguments) waited: \(result.stderr)")
            }
            waiting.executableURL = Binary.url
            waiting.arguments = ["star", "1", "--collection", path]
            waiting.standardOutput = FileHandle.nullDevice
            waiting.standardError = waitingErrors
            try waiting.run()
            // Held until the writer says it is waiting (after a second), read as it arrives.
            while !said.contains("waiting"), case let data = waitingErrors.fileHandleForReading.availableData, !data.isEmpty {
                said += String(decoding: data, as: UTF8.self)
            }
        }
        waiting.waitUntilExit()
        #expect(waiting.terminationStatus == 0)
        said += String(decoding: waitingErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("waiting for another Maeil to finish writing"), "\(said)")
        #expect(try collection.cards(noteID: 1).allSatisfy(\.starred))
    }

    /// A review session and other commands on one collection at once never fail with
    /// "database is locked"; two sessions answering at once never both answer one card.
    @Test func twoProcessesNeverSeeDatabaseIsLocked() throws {
        let path = try Fixture.wordCollection(count: 300)
        let group = DispatchGroup()
        nonisolated(unsafe) var results: [Binary.Result] = []
        let lock = NSLock()
        let decks = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Decks")
        let state = Fixture.temporaryDirectory().path
        for worker in 0..<6 {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                for round in 0..<(worker < 2 ? 1 : (worker == 5 ? 3 : 15)) {
                    let arguments: [String]
                    switch worker {
                    case 0, 1: arguments = ["review", "--collection", path]
                    case 2: arguments = ["stats", "--collection", path]
                    case 3: arguments = ["decks", "--json", "--collection", path]
                    case 4: arguments = ["focus", "export", "--out", state + "/focus\(round).json", "--collection", path]
                    default: arguments = ["import", decks.appendingPathComponent(["korean-practice", "memory-verses", "hangul-jamo"][round]).path,
                                          "--collection", path]
                    }
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
