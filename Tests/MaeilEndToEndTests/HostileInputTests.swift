import Foundation
import MaeilCore
import MaeilStore
import MaeilTestSupport
import Testing

/// Files that attack the terminal, the disk or the collection, through the real binary: each
/// case here was found by an adversarial run and failed before its fix.
@Suite("Hostile input and faults", .serialized)
struct HostileInputTests {
    /// Escape sequences that write the clipboard (OSC 52), clear the screen, make links, a C1
    /// CSI, a direction override, a backspace, a bell and a DCS string.
    static let corpus = "a\u{1B}]52;c;aGk=\u{07}b\u{1B}[2Jc\u{1B}]8;;http://x\u{1B}\\d\u{9B}31me\u{202E}f\u{08}g\u{07}h\u{1B}P1;2|x\u{1B}\\i"

    /// Nothing that reached the terminal may act on it: no control character but the line break.
    static func unsafe(_ result: Binary.Result) -> [String] {
        (result.stdout + result.stderr).unicodeScalars.filter { $0 != "\n" && TerminalText.isUnsafe($0) }
            .map { String(format: "U+%04X", $0.value) }
    }

    static func environment(_ folder: URL) -> [String: String] {
        ["HOME": folder.path, "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
         "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "MAEIL_SPEECH": "stub"]
    }

    /// The corpus in a CSV's file name, column names and values, then every command that shows
    /// any of it, every focus format, a piped review and the prompt, and error messages that
    /// quote a file: no control byte comes out.
    @Test func theHostileCorpusThroughEveryOutput() throws {
        let folder = Fixture.temporaryDirectory()
        let environment = Self.environment(folder)
        let path = folder.appendingPathComponent("c.sqlite").path
        let hostile = Self.corpus
        let csv = folder.appendingPathComponent("deck\(hostile.replacingOccurrences(of: "/", with: "")).csv")
        let rows = (0..<6).map { "word\($0) \(hostile),meaning \(hostile),extra \(hostile)" }
        try Data(("front\(hostile),back\(hostile),note\(hostile)\n" + rows.joined(separator: "\n") + "\n").utf8).write(to: csv)
        var results: [(String, Binary.Result)] = []
        func run(_ arguments: [String], input: String = "") throws {
            let result = try Binary.run(arguments, input: input, environment: environment, directory: folder)
            results.append((arguments.joined(separator: " "), result))
        }
        try run(["import", "--create", "--collection", path, csv.path])
        #expect(results[0].1.status == 0, "\(results[0].1.stderr)")
        let collection = try Collection(path: path)
        let deck = try #require(try collection.decks().first)
        let slug = deck.name
        try run(["review", "--collection", path], input: "\n1\n\n3\n\n1\nq\n")
        for command in [["decks"], ["deck", slug], ["find", "word"], ["find", "word", "--json"], ["show", "1"], ["show", "card:1"],
                        ["info", "1"], ["info", "1", "--json"], ["missed"], ["missed", "--json"], ["stats", "--json"], ["star", "1"],
                        ["check"], ["export", "--out", folder.appendingPathComponent("out.txt").path]] {
            try run(command + ["--collection", path])
        }
        for format in ["text", "json", "waybar", "i3status", "xbar"] {
            try run(["focus", "--format", format, "--collection", path])
        }
        try run(["--collection", path], input: "show 1\nfind word\ndecks\nhelp deck\nquit\n")
        // Errors quoting what a file or an argument said.
        try run(["import", "--collection", path, folder.appendingPathComponent("nope\(hostile).txt").path])
        try run(["st\(hostile)ats"])
        let deckFolder = folder.appendingPathComponent("evil-deck")
        try FileManager.default.createDirectory(at: deckFolder, withIntermediateDirectories: true)
        try Data("format: 1\nid: evil\nname: Evil\nfields: [front, back]\ntemplates: [{name: r, front: front, back: back}]\nitems: items.tsv\n".utf8)
            .write(to: deckFolder.appendingPathComponent("deck.yaml"))
        try Data("id\tfront\tcolumn\(hostile)\nx\ty\tz\n".utf8).write(to: deckFolder.appendingPathComponent("items.tsv"))
        try run(["import", "--collection", path, deckFolder.path])
        try Data("format: 1\nid: evil\nname: Evil\nkey\(hostile): 1\n".utf8).write(to: deckFolder.appendingPathComponent("deck.yaml"))
        try run(["import", "--collection", path, deckFolder.path])
        for (command, result) in results {
            #expect(Self.unsafe(result).isEmpty, "`\(command)` printed \(Self.unsafe(result)):\n\(result.stdout)\n\(result.stderr)")
        }
        // The JSON keeps the text, with the unsafe characters written as escapes.
        let json = try #require(results.first { $0.0.hasPrefix("find word --json") }?.1.stdout)
        #expect(json.contains("\\u009B31me\\u202E"))
        // Waybar reads markup: card text cannot become it.
        let waybar = try #require(results.first { $0.0.hasPrefix("focus --format waybar") }?.1.stdout)
        #expect(!waybar.contains("<"))
        #expect(results.count > 25)
    }

    /// A deck folder's items.tsv that is a link to /etc/passwd is refused unread.
    @Test func aDeckFolderNeverReadsOutsideItself() throws {
        let folder = Fixture.temporaryDirectory()
        let deck = folder.appendingPathComponent("deck")
        try FileManager.default.createDirectory(at: deck, withIntermediateDirectories: true)
        try Data("format: 1\nid: x\nname: X\nfields: [front, back]\ntemplates: [{name: r, front: front, back: back}]\nitems: items.tsv\n".utf8)
            .write(to: deck.appendingPathComponent("deck.yaml"))
        try FileManager.default.createSymbolicLink(atPath: deck.appendingPathComponent("items.tsv").path, withDestinationPath: "/etc/passwd")
        let result = try Binary.run(["import", "--create", "--collection", folder.appendingPathComponent("c.sqlite").path, deck.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("symbolic link"))
        #expect(!result.stderr.contains("root"))
    }

    /// FSRS weights outside fsrs-rs's bounds are refused where they enter, and a card whose
    /// stored stability is not a number is neither a crash at review nor passed by `check`.
    @Test func fsrsParametersThatWouldOverflowAreRefused() throws {
        let weights = ["1000"] + FSRSParameters.fsrs6Default.weights.dropFirst().map { "\($0)" }
        let schedule = try Binary.run(["schedule", "--scheduler", "fsrs", "--parameters", weights.joined(separator: ","), "--ratings", "good,good"])
        #expect(schedule.status == 2, "\(schedule.stderr)")
        #expect(schedule.stderr.contains("w0 must be from 0.001 to 100, not 1000"))
        let path = try Fixture.wordCollection(count: 3)
        let set = try Binary.run(["deck", "Words", "set", "fsrs_parameters"] + weights + ["--collection", path])
        #expect(set.status == 2, "\(set.stderr)")
        // Damage a card's stored stability as a bad build could have: review goes on, check says so.
        let collection = try Collection(path: path)
        let card = try collection.cards(deckID: try collection.decks()[0].id)[0]
        let state = CardState(phase: .review, intervalDays: 3, stability: 2, difficulty: 5, due: Date().addingTimeInterval(-3600), reps: 3,
                              lastReview: Date().addingTimeInterval(-3 * 86_400))
        try collection.setState(cardID: card.id, state, at: Date())
        let damage = { try collection.transaction { try $0.execute(sql: "UPDATE card SET stability = 9e999 WHERE id = ?", arguments: [card.id]) } }
        try damage()
        try collection.transaction { try $0.execute(sql: "UPDATE preset SET scheduler = json_set(scheduler, '$.kind', 'fsrs')") }
        let check = try Binary.run(["check", "--collection", path])
        #expect(check.status == 1)
        #expect(check.stdout.contains("card \(card.id): its schedule holds a number that is not finite or out of range"), "\(check.stdout)")
        // The card is reviewed from its interval and ease instead, and its new state is sound (the
        // new cards are mixed in with it, as in Anki: all three are answered).
        let review = try Binary.run(["review", "--collection", path], input: "\n3\n\n3\n\n3\nq\n")
        #expect(review.status == 0, "\(review.stderr)")
        #expect(review.stdout.contains("good · "))
        let checked = try Binary.run(["check", "--collection", path])
        #expect(checked.status == 0, "\(checked.stdout)")
        try damage()
        #expect(try Binary.run(["check", "--repair", "--collection", path]).stdout.contains("repaired: 1"))
        #expect(try Binary.run(["check", "--collection", path]).status == 0)
    }

    /// Too wide, too big, too many: each refused up front with the figure and the limit.
    @Test func sizesAreCapped() throws {
        let folder = Fixture.temporaryDirectory()
        let wide = folder.appendingPathComponent("wide.csv")
        try Data(((0..<1_000_000).map { "c\($0)" }.joined(separator: ",") + "\n" + Array(repeating: "x", count: 1_000_000).joined(separator: ",") + "\n").utf8)
            .write(to: wide)
        let csv = try Binary.run(["import", "--create", "--collection", folder.appendingPathComponent("c.sqlite").path, wide.path])
        #expect(csv.status == 1)
        #expect(csv.stderr.contains("names 1000000 columns; a note holds at most 100 fields"))
        let items = try Binary.run(["sim", "--items", "100000000"])
        #expect(items.status == 2)
        #expect(items.stderr.contains("--items must be a whole number from 0 to 10000000"))
        let memory = try Binary.run(["sim", "--items", "10000000", "--max-memory", "100"])
        #expect(memory.status == 1)
        #expect(memory.stderr.contains("MB of memory"))
        #expect(memory.stderr.contains("--max-memory"))
        // A package whose picture is 300 MB of zeros (a zip bomb) is refused, nothing written.
        let bomb = try DeckFiles.zip([
            ("collection.anki21", try ZipReading.entries(DeckFiles.fixtures.appendingPathComponent("korean-legacy.apkg"))["collection.anki21"]!),
            ("media", Data(#"{"0": "bomb.png"}"#.utf8)), ("0", Data(count: 300 << 20)),
        ])
        let collection = folder.appendingPathComponent("bomb.sqlite").path
        let result = try Binary.run(["import", "--create", "--collection", collection, bomb])
        #expect(result.status == 1)
        #expect(result.stderr.contains("as a zip bomb does"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("media").path))
    }

    /// Paths that are not collections, and files that are not decks.
    @Test func wrongPathsAreSaidAndNothingIsMade() throws {
        let folder = Fixture.temporaryDirectory()
        let nested = folder.appendingPathComponent("no/such/dir/c.sqlite").path
        let refused = try Binary.run(["import", "--collection", nested, Self.decks("korean-practice")])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("add --create"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("no").path))
        #expect(try Binary.run(["import", "--create", "--collection", nested, Self.decks("korean-practice")]).status == 0)
        let passwd = try Binary.run(["import", "--create", "--collection", folder.appendingPathComponent("p.sqlite").path, "/etc/passwd"])
        #expect(passwd.status == 1)
        #expect(passwd.stderr.contains("needs a header row naming at least two"))
        let asFolder = try Binary.run(["decks", "--collection", folder.path])
        #expect(asFolder.status == 1)
        #expect(asFolder.stderr.contains("it is a folder, not a collection file"), "\(asFolder.stderr)")
    }

    static func decks(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Decks/\(name)").path
    }

    /// A damaged file: review writes nothing into it, check says it is damaged, and
    /// check --repair copies what can be read into a new file that passes.
    @Test func aDamagedCollectionIsNeverWrittenTo() throws {
        let path = try Fixture.wordCollection(count: 2000)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(size / 2))
        handle.write(Data(repeating: 0xDE, count: 16_384))
        try handle.close()
        let review = try Binary.run(["review", "--collection", path], input: "\n3\n\n3\nq\n")
        #expect(review.status == 1)
        #expect(review.stderr.contains("is damaged") && review.stderr.contains("nothing was written"), "\(review.stderr)")
        #expect(!review.stdout.contains("good ·"))
        let check = try Binary.run(["check", "--collection", path])
        #expect(check.status == 1)
        #expect(check.stdout.contains("integrity: damaged"), "\(check.stdout)\(check.stderr)")
        let repair = try Binary.run(["check", "--repair", "--collection", path])
        #expect(repair.status == 0, "\(repair.stderr)")
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let recovered = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .first { $0.contains("-recovered-") && $0.hasSuffix(".sqlite") })
        let again = try Binary.run(["check", "--collection", folder.appendingPathComponent(recovered).path])
        #expect(again.status == 0, "\(again.stdout)")
        #expect(try Binary.run(["decks", "--collection", folder.appendingPathComponent(recovered).path]).stdout.contains("Words"))
    }

    /// A full disk during an import (here a file-size limit, which fails a write the same way):
    /// one sentence, nothing imported, no staging folder left behind.
    @Test func aFullDiskDuringAnImportLeavesNothing() throws {
        let folder = Fixture.temporaryDirectory()
        let path = folder.appendingPathComponent("c.sqlite").path
        #expect(try Binary.run(["import", "--create", "--collection", path, Self.decks("hangul-jamo")]).status == 0)
        let media = Data((0..<(3 << 20)).map { _ in UInt8.random(in: 0...255) })
        let package = try DeckFiles.zip([
            ("collection.anki21", try ZipReading.entries(DeckFiles.fixtures.appendingPathComponent("korean-legacy.apkg"))["collection.anki21"]!),
            ("media", Data(#"{"0": "big.png"}"#.utf8)), ("0", media),
        ])
        let limited = try Binary.runProgram("/bin/sh", ["-c", "trap '' XFSZ; ulimit -f 2000; exec \"$0\" import --collection \"$1\" \"$2\"",
                                                      Binary.url.path, path, package], directory: folder)
        #expect(limited.status == 1)
        #expect(limited.stderr.contains("the disk is full"), "\(limited.stderr)")
        #expect(limited.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".media-import") || $0 == "media" }.isEmpty)
        #expect(try Collection(path: path).decks().map(\.name) == ["Hangul Jamo"])
    }

    /// Clear words for wrong values.
    @Test func messagesSayWhatIsWrong() throws {
        let folder = Fixture.temporaryDirectory()
        let environment = Self.environment(folder)
        let cases: [([String], String)] = [
            (["sim", "--items", "-5"], "--items must be a whole number from 0 to 10000000"),
            (["schedule", "--ratings", "good,bogus"], "'bogus' is not an answer; the answers are again, hard, good, easy"),
            (["config", "focus.limit", "0"], "focus.limit takes a whole number of 1 or more"),
            (["config", "focus.export", "bogus:/tmp/x"], "FORMAT one of json, text, waybar, i3status, xbar"),
        ]
        for (arguments, message) in cases {
            let result = try Binary.run(arguments, environment: environment)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let deck = folder.appendingPathComponent("deep")
        try FileManager.default.createDirectory(at: deck, withIntermediateDirectories: true)
        try Data(("format: 1\nid: x\nname: x\nfields: " + String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000) + "\n").utf8)
            .write(to: deck.appendingPathComponent("deck.yaml"))
        let yaml = try Binary.run(["import", "--create", "--collection", folder.appendingPathComponent("c.sqlite").path, deck.path])
        #expect(yaml.stderr.contains("not valid YAML: nested too deeply"))
        #expect(!yaml.stderr.contains("yaml_"))
    }
}
