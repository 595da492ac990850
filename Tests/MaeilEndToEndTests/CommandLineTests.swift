import Foundation
import MaeilStore
import Testing
import MaeilTestSupport

/// The command line as a user types it: the README's commands as written, `--collection` in any
/// position, the exit statuses the README promises, and an installed copy.
@Suite("The command line, as written", .serialized)
struct CommandLineTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A folder to run commands in: its own HOME and XDG folders, a collection with every bundled
    /// deck (the default one, through $MAEIL_COLLECTION), and the files the README imports.
    struct Sandbox {
        let folder: URL
        let collection: String
        let environment: [String: String]

        init() throws {
            folder = Fixture.temporaryDirectory()
            collection = folder.appendingPathComponent("data/maeil/collection.sqlite").path
            environment = [
                "HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                "XDG_STATE_HOME": folder.appendingPathComponent("state").path, "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
                "MAEIL_COLLECTION": collection, "MAEIL_SPEECH": "stub",
                "PATH": Binary.url.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            ]
            let decks = CommandLineTests.repository.appendingPathComponent("Decks")
            // As in a checkout, where the README's `maeil import Decks/…` is run.
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("Decks"), withDestinationURL: decks)
            let names = ["hangul-jamo", "korean-practice", "jlpt-n5-vocabulary", "jlpt-n5-kanji", "memory-verses"]
            let imported = try Binary.run(["import"] + names.map { decks.appendingPathComponent($0).path }, environment: environment)
            #expect(imported.status == 0, "\(imported.stderr)")
            try Data("#separator:tab\n#deck:Words\n물\twater\n불\tfire\n".utf8).write(to: folder.appendingPathComponent("words.txt"))
            try Data("Korean,back\n김치,kimchi\n밥,rice\n".utf8).write(to: folder.appendingPathComponent("words.csv"))
            try Data("card_id,review_time,review_rating,review_state,review_duration\n1,1700049600000,3,0,4000\n1,1700136000000,3,2,3000\n"
                .utf8).write(to: folder.appendingPathComponent("revlog.csv"))
            let exported = try Binary.run(["export", "Korean Practice", "--out", folder.appendingPathComponent("Korean.apkg").path],
                                          environment: environment)
            #expect(exported.status == 0, "\(exported.stderr)")
            // Anki's own collection file where Anki keeps it: the schema-11 collection inside a legacy package.
            let profile = folder.appendingPathComponent(".local/share/Anki2/User 1")
            try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
            let legacy = folder.appendingPathComponent("legacy.apkg").path
            let written = try Binary.run(["export", "Korean Practice", "--format", "apkg-legacy", "--out", legacy], environment: environment)
            #expect(written.status == 0, "\(written.stderr)")
            let unzipped = try Binary.runProgram("/usr/bin/python3", ["-c", "import sys, zipfile; open(sys.argv[2], 'wb').write(zipfile.ZipFile(sys.argv[1]).read('collection.anki21'))",
                                                                   legacy, profile.appendingPathComponent("collection.anki2").path])
            #expect(unzipped.status == 0, "\(unzipped.stderr)")
        }

        /// Runs a shell line here, as a user would type it.
        func shell(_ line: String, input: String = "") throws -> Binary.Result {
            try Binary.runProgram("/bin/sh", ["-c", line], input: input, environment: environment, directory: folder)
        }

        func run(_ arguments: [String], input: String = "") throws -> Binary.Result {
            try Binary.run(arguments, input: input, environment: environment, directory: folder)
        }
    }

    /// The command lines of the README's `sh` and `console` blocks that run Maeil. The two
    /// commands of "Start" (which start the prompt and this very suite), `scripts/install` (its
    /// own test below) and the benchmark build are left out.
    static func readmeCommands() throws -> [String] {
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        var commands: [String] = []
        var block: String?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                block = block == nil ? String(line.dropFirst(3)) : nil
                continue
            }
            guard let kind = block else { continue }
            var command = line
            if kind == "console" {
                guard line.hasPrefix("$ ") else { continue }
                command = String(line.dropFirst(2))
            } else if kind != "sh" {
                continue
            }
            let words = command.split(separator: " ")
            guard words.contains(where: { $0 == "maeil" }), let first = words.first,
                  !first.hasPrefix("scripts/"), first != "swift" else { continue }
            commands.append(command)
        }
        return commands
    }

    @Test func everyCommandInTheReadmeRunsAsWritten() throws {
        let commands = try Self.readmeCommands()
        #expect(commands.count >= 30, "\(commands)")
        #expect(commands.contains { $0.hasPrefix("maeil review --focus") })
        let sandbox = try Sandbox()
        // The sync commands talk to Anki's own server, run as the README runs it (on a free port here).
        let syncing = commands.filter { $0.contains("maeil sync") }
        #expect(syncing.count >= 3)
        let server = AnkiPython.path == nil ? nil : try AnkiSyncServer(users: ["me"], password: "a-long-password", folder: sandbox.folder.appendingPathComponent("server"))
        for command in commands {
            guard !syncing.contains(command) || server != nil else { continue }  // no Anki library here: said by the sync tests
            let line = server.map { command.replacingOccurrences(of: "http://localhost:8080/", with: $0.endpoint) } ?? command
            let result = try sandbox.shell(line, input: "a-long-password\n")
            #expect(result.status == 0, "`\(command)` exited \(result.status): \(result.stderr)")
        }
    }

    /// A command of a command (`read done`, `focus show`) takes `--collection` before the first
    /// name, between the names and at the end alike, and acts on that collection.
    @Test(arguments: [["read", "done", "1"], ["focus", "show"], ["read", "verse", "Psalm 1:1", "--text", "Blessed"]])
    func theCollectionOptionWorksAroundNestedCommands(_ command: [String]) throws {
        let sandbox = try Sandbox()
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.collection))
        let other = sandbox.folder.appendingPathComponent("other.sqlite").path
        var outputs: [String] = []
        for arguments in [
            ["--collection", other] + command,
            [command[0], "--collection", other] + command.dropFirst(),
            command + ["--collection", other],
        ] {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: other + suffix) }
            let made = try sandbox.run(["import", "--create", "--collection", other, Self.repository.appendingPathComponent("Decks/mcheyne-reading-plan").path,
                                        Self.repository.appendingPathComponent("Decks/memory-verses").path])
            #expect(made.status == 0, "\(made.stderr)")
            let result = try sandbox.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            outputs.append(result.stdout)
        }
        #expect(Set(outputs).count == 1, "\(command): \(outputs)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.collection)) == before, "\(command) changed the default collection")
        #expect(try Binary.run(["help", "read"]).status == 0)
        #expect(try sandbox.run(["--collection", other, "help", "read"]).stdout.hasPrefix("OVERVIEW: A reading plan's day"))
    }

    /// Each command given `--collection` before its arguments, after them, and before the
    /// command's name prints the same, and acts on that collection, never the default one.
    @Test(arguments: [
        ["decks"], ["deck", "Korean", "Practice"], ["find", "김치"], ["show", "5"], ["show", "card:7"], ["info", "7"], ["missed"],
        ["stats", "korean-practice"], ["focus", "--format", "json"], ["star", "5"], ["suspend", "5"], ["tag", "5", "+x"],
        ["forget", "7"], ["check"], ["review", "korean-practice"], ["export", "korean-practice", "--out", "k.txt"],
    ])
    func theCollectionOptionWorksInAnyPosition(_ command: [String]) throws {
        let sandbox = try Sandbox()
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.collection))
        var outputs: [String] = []
        for (index, arguments) in [
            [command[0], "--collection", "other.sqlite"] + command.dropFirst(),
            command + ["--collection", "other.sqlite"],
            ["--collection", "other.sqlite"] + command,
        ].enumerated() {
            // A fresh copy of the named collection each time, made from the same deck.
            let other = sandbox.folder.appendingPathComponent("other.sqlite").path
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: other + suffix) }
            let made = try sandbox.run(["import", "--create", "--collection", other, Self.repository.appendingPathComponent("Decks/korean-practice").path])
            #expect(made.status == 0)
            let result = try sandbox.run(arguments, input: "")
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            outputs.append(result.stdout.replacingOccurrences(of: #""generated" : "[^"]*""#, with: "", options: .regularExpression))
            if index == 0, command[0] == "star" {
                let collection = try Collection(path: other)
                #expect(try collection.cards(noteID: 5).allSatisfy(\.starred))
            }
        }
        #expect(outputs[0] == outputs[1], "\(command)")
        #expect(outputs[0] == outputs[2], "\(command)")
        // The default collection (every bundled deck) was not touched.
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.collection)) == before, "\(command) changed the default collection")
    }

    /// "--" ends the options, as everywhere on the command line: `find -- -WORD` searches for
    /// notes without WORD (before, "--" was a search word of its own and left out every note
    /// with a hyphen); `tag N -- -TAG` removes TAG; `deck D -- set KEY -1` sets -1.
    @Test func theOptionTerminatorIsNoWord() throws {
        let sandbox = try Sandbox()
        let other = sandbox.folder.appendingPathComponent("other.sqlite").path
        #expect(try sandbox.run(["import", "--create", "--collection", other, Self.repository.appendingPathComponent("Decks/korean-practice").path]).status == 0)
        #expect(try sandbox.run(["edit", "5", "--collection", other], input: "김치-찌개\n\n\n\n").status == 0)
        #expect(try sandbox.run(["tag", "5", "+spicy", "--collection", other]).status == 0)
        let plain = try sandbox.run(["find", "--cards", "--json", "--collection", other, "김치"]).stdout
        let terminated = try sandbox.run(["find", "--cards", "--json", "--collection", other, "--", "김치"]).stdout
        #expect(plain == terminated && plain.contains("김치-찌개"), "\(plain)\n\(terminated)")
        let removed = try sandbox.run(["tag", "5", "--collection", other, "--", "-spicy"])
        #expect(removed.status == 0 && removed.stdout == "note 5: foods\n", "\(removed.stdout)\(removed.stderr)")
    }

    /// Each error the README names exits with its status and says what to do.
    @Test func errorsExitWithTheDocumentedStatus() throws {
        let sandbox = try Sandbox()
        let cases: [(arguments: [String], status: Int32, says: String)] = [
            (["find"], 2, "find what? find TEXT, or find tag:NAME"),
            (["say"], 2, "say what?"),
            (["say", "안녕", "--lang", "xx"], 2, "no language 'xx'"),
            (["delete", "942"], 1, "no note 942"),
            (["delete", "1"], 2, "give --yes"),
            (["stat"], 2, "no command 'stat'; the nearest is 'stats'"),
            (["sttas"], 2, "the nearest is 'stats'"),
            (["show", "99999"], 1, "`maeil find TEXT` gives note numbers"),
            (["show", "card:99999"], 1, "no card 99999"),
            (["info", "x"], 2, "The value 'x' is invalid for '<card>'"),
            (["review", "no-such-deck"], 1, "no deck named “no-such-deck”; `maeil decks` lists them"),
            (["deck", "korean-practice", "set", "new_per_day", "-3"], 2, "new_per_day must be a whole number from 0 to 9999"),
            (["deck", "korean-practice", "set", "nope", "1"], 2, "no option 'nope'"),
            (["decks", "--collection", "missing.sqlite"], 1, "run `maeil --collection missing.sqlite --create`"),
            (["review", "--focus", "--missed"], 2, "do not go together"),
            (["sim", "no-such-scenario"], 1, "hangul-30-days"),
            (["undo", "--collection", "empty.sqlite"], 1, "no collection at"),
        ]
        for (arguments, status, says) in cases {
            let result = try sandbox.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(says), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("missing.sqlite").path))
        let focus = try sandbox.run(["review", "--focus"])
        #expect(focus.status == 0, "\(focus.stderr)")
    }

    /// `maeil bench` runs the benchmarks built beside it (maeil-bench), with its options.
    @Test func benchRunsTheBenchmarksBesideIt() throws {
        let result = try Binary.run(["bench", "--filter", "scheduler.sm2", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(figures.map { $0["name"] as? String } == ["scheduler.sm2.answers_per_second"])
        #expect((figures.first?["value"] as? Double ?? 0) > 1000)
    }

    /// `show` takes a note's number; a number that is only a card's says which note it showed.
    @Test func idsAreOneKindPerCommand() throws {
        let sandbox = try Sandbox()
        let collection = try Collection(path: sandbox.collection)
        let card = try collection.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM card") }!
        let note = try collection.card(id: card).noteID
        #expect(try collection.read { try Int64.fetchOne($0, sql: "SELECT count(*) FROM note WHERE id = ?", arguments: [card]) } == 0)
        let shown = try sandbox.run(["show", "\(card)"])
        #expect(shown.status == 0)
        #expect(shown.stdout.hasPrefix("There is no note \(card); card \(card) is of note \(note):\nNote \(note) ·"), "\(shown.stdout)")
        let missed = try sandbox.run(["missed", "--help"])
        #expect(missed.stdout.contains("card's number"))
    }

    /// Installed into a prefix and run from elsewhere, Maeil finds its decks and scenarios there.
    @Test func anInstalledCopyFindsItsData() throws {
        let prefix = Fixture.temporaryDirectory().appendingPathComponent("prefix")
        // `swift test` holds the build folder: the install uses this build.
        let install = try Binary.runProgram(Self.repository.appendingPathComponent("scripts/install").path, [prefix.path],
                                            environment: ["MAEIL_BINARY": Binary.url.path], directory: Self.repository)
        #expect(install.status == 0, "\(install.stderr)")
        let share = prefix.appendingPathComponent("share")
        for file in ["bash-completion/completions/maeil", "zsh/site-functions/_maeil", "fish/vendor_completions.d/maeil.fish",
                     "man/man1/maeil.1", "maeil/Decks/hangul-jamo/deck.yaml", "maeil/Sim/hangul-30-days.yaml"] {
            let path = share.appendingPathComponent(file).path
            #expect(FileManager.default.fileExists(atPath: path), "\(file)")
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
            #expect(size > 100, "\(file) is empty")
        }
        // The manual as `man` shows it at a UTF-8 terminal: Korean, Japanese and "1–4" kept, and
        // what each exit status means.
        let manual = try Binary.runProgram("/usr/bin/man", ["-l", share.appendingPathComponent("man/man1/maeil.1").path],
                                           environment: ["LANG": "C.UTF-8", "MANWIDTH": "100", "MAN_KEEP_FORMATTING": ""], directory: Self.repository)
        for shown in ["find 김치 · find 猫", "1–4 answer", "EXIT STATUS", "The command line is wrong"] {
            #expect(manual.stdout.contains(shown), "the manual lacks \(shown)")
        }
        // bash's Tab after `focus`, whose default subcommand is `focus show`: its options and values.
        func complete(_ words: [String]) throws -> [String] {
            let script = """
                source '\(share.appendingPathComponent("bash-completion/completions/maeil").path)'
                COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                _maeil maeil "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; printf '%s\\n' "${COMPREPLY[@]}"
                """
            return try Binary.runProgram("/bin/bash", ["-c", script]).stdout.split(separator: "\n").map(String.init).sorted()
        }
        #expect(try complete(["maeil", "focus", "--format", ""]) == ["i3status", "json", "text", "waybar", "xbar"])
        #expect(try Set(complete(["maeil", "focus", ""])).isSuperset(of: ["show", "export", "--format", "--limit", "--json"]))
        #expect(try complete(["maeil", "focus", "export", "--format", ""]) == ["i3status", "json", "text", "waybar", "xbar"])
        let maeil = prefix.appendingPathComponent("bin/maeil").path
        let elsewhere = Fixture.temporaryDirectory()
        let environment = ["HOME": elsewhere.path, "XDG_DATA_HOME": elsewhere.appendingPathComponent("data").path]
        let about = try Binary.runProgram(maeil, ["about"], environment: environment, directory: elsewhere)
        #expect(about.stdout.contains("Bundled decks: \(share.path)/maeil/Decks"), "\(about.stdout)")
        #expect(about.stdout.contains("Scenarios: \(share.path)/maeil/Sim"))
        // Run from PATH as a shell runs it (its first word is then only "maeil"), and under an
        // LD_PRELOAD-ed libfaketime (which leaves Swift no words at all): the same folders.
        let fromPath = try Binary.runProgram("/bin/sh", ["-c", "maeil about"],
                                             environment: environment.merging(["PATH": prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin"]) { $1 },
                                             directory: elsewhere)
        #expect(fromPath.stdout.contains("Bundled decks: \(share.path)/maeil/Decks"), "\(fromPath.stdout) \(fromPath.stderr)")
        if FileManager.default.fileExists(atPath: AnkiPython.faketime) {
            let frozen = try Binary.runProgram(maeil, ["about"], environment: environment.merging(
                ["LD_PRELOAD": AnkiPython.faketime, "FAKETIME": "@2026-01-05 12:00:00"]) { $1 }, directory: elsewhere)
            #expect(frozen.status == 0 && frozen.stdout.contains("Bundled decks: \(share.path)/maeil/Decks"), "\(frozen.stdout) \(frozen.stderr)")
        }
        // Every scenario `sim --help` names runs (a month of it, to keep this quick).
        let help = try Binary.runProgram(maeil, ["sim", "--help"], environment: environment, directory: elsewhere).stdout
        let listed = try #require(help.range(of: "Sim/: ")).upperBound
        let names = help[listed...].prefix { $0 != "." }.replacingOccurrences(of: "\n", with: " ").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(names == ["fsrs-rs-reference", "hangul-30-days", "jlpt-3000-by-day", "stress-100k-10y", "verses-year"])
        for name in names {
            let run = try Binary.runProgram(maeil, ["sim", name, "--days", "30", "--runs", "1", "--json"], environment: environment,
                                            directory: elsewhere)
            #expect(run.status == 0, "\(name): \(run.stderr)")
        }
        // A first run at a terminal offers the installed bundled decks.
        let tmux = Tmux(home: elsewhere)
        try tmux.start([], environment: ["XDG_DATA_HOME": elsewhere.appendingPathComponent("data").path], binary: maeil,
                       directory: elsewhere.path)
        #expect(try tmux.wait(for: "Which decks?").contains("  1  Hangul Jamo"))
    }
}
