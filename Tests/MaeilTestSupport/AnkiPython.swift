import Foundation

/// Anki's own backend and fsrs-rs, in the Python that scripts/setup installs them into
/// (.build/anki-venv; MAEIL_ANKI_PYTHON names another): the tests that hold Maeil against them
/// run its scripts in scripts/anki and scripts/fixtures.
package enum AnkiPython {
    package static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The interpreter that has `anki`, if there is one.
    package static let path: String? = {
        let candidate = ProcessInfo.processInfo.environment["MAEIL_ANKI_PYTHON"]
            ?? repository.appendingPathComponent(".build/anki-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: candidate), (try? run(candidate, ["-c", "import anki"]))?.status == 0 else { return nil }
        return candidate
    }()

    package static let missing = "the anki Python package is not installed (scripts/setup installs it into .build/anki-venv; MAEIL_ANKI_PYTHON names another)"

    /// libfaketime, which the scripts freeze Anki's clock with.
    package static let faketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"

    /// Runs the repository's `script` (a path from its root) with the interpreter, the
    /// interpreter's path first among its arguments, as the scripts take it.
    package static func script(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        guard let path else { return (127, "", missing) }
        return try run(path, [repository.appendingPathComponent(script).path, path] + arguments)
    }

    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes read to the end before waiting, so a chatty script never blocks on a full pipe.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }
}
