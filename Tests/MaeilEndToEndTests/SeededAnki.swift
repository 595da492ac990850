import Foundation
import MaeilREPL
import MaeilTestSupport

/// scripts/anki/seeded.py and the real `maeil` side by side, each at a given moment under
/// libfaketime: the helpers the tests that hold Maeil's commands against Anki's share.
struct SeededAnki {
    let folder: URL

    /// The moment seeded.py starts its collections' clocks: 10:00 UTC sixty days before today,
    /// or before the day MAEIL_SEEDED_TODAY names (YYYY-MM-DD), to run a failing day again: a
    /// past day (past the real one, Anki's Check Database finds the studying in the future).
    static let start: Int = {
        var today = Int(Date().timeIntervalSince1970) / 86_400
        if let named = ProcessInfo.processInfo.environment["MAEIL_SEEDED_TODAY"] {
            let format = DateFormatter()
            format.dateFormat = "yyyy-MM-dd"
            format.timeZone = TimeZone(identifier: "UTC")
            today = Int(format.date(from: named)!.timeIntervalSince1970) / 86_400
        }
        return (today - 60) * 86_400 + 10 * 3600
    }()

    /// Runs seeded.py in `zone`; returns the JSON object it prints.
    func python(_ arguments: [String], zone: String) throws -> [String: Any] {
        guard let object = try pythonValue(arguments, zone: zone) as? [String: Any] else {
            throw OneCollectionTests.Failure("seeded.py \(arguments.first ?? ""): not a JSON object")
        }
        return object
    }

    /// Runs seeded.py in `zone`; returns the JSON value it prints.
    func pythonValue(_ arguments: [String], zone: String) throws -> Any {
        let result = try Binary.runProgram(AnkiPython.path!, [AnkiPython.repository.appendingPathComponent("scripts/anki/seeded.py").path] + arguments,
                                           environment: ["TZ": zone])
        guard result.status == 0, let value = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) else {
            throw OneCollectionTests.Failure("seeded.py \(arguments.first ?? ""): \(result.stderr.suffix(1500))")
        }
        return value
    }

    /// A collection seeded.py made, imported into Maeil from its .colpkg.
    struct Seed {
        let name: String, zone: String, folder: URL
        /// What seeded.py said of it, and the time of its last answers.
        let made: [String: Any], last: Int
        /// Maeil's collection.
        let collection: String
    }

    /// `perZone` seeds in each of `zones` (numbered from `first`, a hundred more for each next
    /// zone), made by seeded.py in the zone and imported by maeil minutes after their last answers.
    /// `only`: some of those seeds, comma-separated, to look into a failure.
    func imported(zones: [String], first: Int, perZone: Int, only: String? = nil) throws -> [Seed] {
        let chosen = only.map { Set($0.split(separator: ",").map(String.init)) }
        return try zones.enumerated().flatMap { index, zone -> [Seed] in
            let names = (0..<(chosen == nil ? perZone : 100)).map { String(first + index * 100 + $0) }.filter { chosen?.contains($0) ?? true }
            guard !names.isEmpty else { return [] }
            let made = try python(["make", folder.path, zone] + names, zone: zone)
            return try names.map { name in
                let seedFolder = folder.appendingPathComponent(name)
                let facts = made[name] as? [String: Any] ?? [:]
                guard let last = facts["last"] as? Int else { throw OneCollectionTests.Failure("seeded.py made no seed \(name)") }
                let collection = seedFolder.appendingPathComponent("maeil.sqlite").path
                _ = try maeil(["import", seedFolder.appendingPathComponent("anki.colpkg").path, "--create"], collection, zone, at: last + 600)
                return Seed(name: name, zone: zone, folder: seedFolder, made: facts, last: last, collection: collection)
            }
        }
    }

    /// Runs maeil on `collection` in `zone` with the clock at Unix time `at`; returns its output.
    func maeil(_ arguments: [String], _ collection: String, _ zone: String, at: Int) throws -> String {
        let result = try Binary.run([arguments[0], "--collection", collection] + arguments.dropFirst(), environment: environment(zone, at: at))
        if result.status != 0 { throw OneCollectionTests.Failure("maeil \(arguments.joined(separator: " ")): \(result.stdout)\(result.stderr)") }
        return result.stdout
    }

    /// maeil's environment in `zone`, the clock at Unix time `at` (libfaketime).
    func environment(_ zone: String, at: Int) -> [String: String] {
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd HH:mm:ss"
        format.timeZone = TimeZone(identifier: "UTC")
        return ["TZ": zone, "HOME": folder.path, "XDG_DATA_HOME": folder.path, "MAEIL_SPEECH": "stub",
                "LD_PRELOAD": AnkiPython.faketime, "FAKETIME": "@" + format.string(from: Date(timeIntervalSince1970: TimeInterval(at)))]
    }

    /// Runs `commands` at one prompt of maeil, as `maeil` does above: a process for each took
    /// most of the suites' time here (a thousand searches, each one loading the program). Each word
    /// is quoted as the prompt reads it back (`ShellWords`). Nothing may go to the error stream.
    /// Answers the output.
    func prompt(_ commands: [[String]], _ collection: String, _ zone: String, at: Int) throws -> String {
        let lines = commands.map { words in
            words.map(ShellWords.quoted).joined(separator: " ") + "\n"
        }
        let result = try Binary.run(["--collection", collection], input: lines.joined(), environment: environment(zone, at: at))
        if result.status != 0 || !result.stderr.isEmpty {
            throw OneCollectionTests.Failure("maeil at the prompt, \(commands.map { $0.joined(separator: " ") }): \(result.stdout)\(result.stderr)")
        }
        return result.stdout
    }

    /// The JSON arrays `--json` commands printed one after another at a prompt, in turn: each
    /// opens with a line "[" and closes with a line "]" (what is inside is indented).
    static func jsonArrays(_ output: String) throws -> [[[String: Any]]] {
        var arrays: [[[String: Any]]] = [], current: [Substring]?
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "[" || line == "[]" {
                current = []
            }
            current?.append(line)
            if line == "]" || line == "[]" {
                guard let text = current?.joined(separator: "\n"),
                      let array = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
                    throw OneCollectionTests.Failure("not a JSON array of objects: \(current ?? [])")
                }
                arrays.append(array)
                current = nil
            }
        }
        return arrays
    }
}
