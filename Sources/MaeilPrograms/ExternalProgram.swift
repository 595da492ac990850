import Foundation

/// Programs Maeil uses when the system has them (espeak-ng, kakasi, media players, diatheke,
/// fsrs-rs's Python): found on the PATH and run in one way, so a missing program is always
/// "not there" and never an error half-way.
package enum ExternalProgram {
    package static let defaultSearchPath = "/usr/bin:/bin"
    /// The PATH as the process started with it, read once.
    package static let searchPath = ThisProcess.variables["PATH"] ?? defaultSearchPath

    /// Where `program` is on `searchPath`, or nil.
    package static func find(_ program: String, in searchPath: String = searchPath) -> String? {
        searchPath.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs the program at `path` to its end, with `input` on its standard input, and returns
    /// its exit status and what it printed (its standard error is dropped).
    package static func run(_ path: String, _ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        if input != nil { process.standardInput = stdin }
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

extension ExternalProgram {
    /// Runs the program at `path` on this process's own standard input, output and error, and
    /// returns its exit status.
    package static func runAttached(_ path: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
