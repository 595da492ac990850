import Foundation
import MaeilCore
import MaeilStore

/// Runs the real `maeil` binary that `swift build` put next to the test bundle.
enum Binary {
    static var url: URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("maeil"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("maeil"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/maeil"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `maeil arguments…` to the end with `input` on standard input.
    @discardableResult
    static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:], directory: URL? = nil) throws -> Result {
        try runProgram(url.path, arguments, input: input, environment: environment, directory: directory)
    }

    /// Runs any program the same way: no colour, the tests' time zone, `environment` on top.
    @discardableResult
    static func runProgram(_ program: String, _ arguments: [String], input: String = "", environment: [String: String] = [:],
                           directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1", "TZ": Fixtures.middayTimeZone]) { $1 }
            .merging(environment) { $1 }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a chatty process never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = stderr.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData, as: UTF8.self))
    }
}

enum Fixtures {
    /// A POSIX TZ in which it is now about midday, so learning steps never cross the 04:00
    /// rollover whatever time the tests run ("UTC-5" is five hours east of UTC).
    static var middayTimeZone: String {
        let hour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour!
        var offset = 12 - hour
        if offset > 14 { offset -= 24 }
        if offset < -12 { offset += 24 }
        return "Etc/GMT\(offset >= 0 ? "-" : "+")\(abs(offset))"
    }

    static func temporaryDirectory() -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-e2e-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A collection with `count` one-card word notes, all new, no daily limit worth the name.
    static func collection(count: Int, newPerDay: Int = 10_000) throws -> String {
        let path = temporaryDirectory().appendingPathComponent("collection.sqlite").path
        let collection = try Collection(path: path)
        try collection.batch(now: Date()) { writer in
            let deck = try writer.createDeck(name: "Words", kind: .word,
                                             templates: [CardTemplate(name: "recognize", front: ["word"], back: ["meaning"])],
                                             preset: Preset(name: "Words", newPerDay: newPerDay, reviewsPerDay: 10_000, burySiblings: false))
            for index in 0..<count {
                try writer.addNote(NoteDraft(guid: "w\(index)", kind: .word, fields: [
                    NoteField(name: "word", value: "단어\(index)", language: "ko"), NoteField(name: "meaning", value: "word \(index)"),
                ], position: index), deck: deck)
            }
        }
        return path
    }
}
