import Foundation
import MaeilCore
import MaeilStore
import MaeilTestSupport

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
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1", "TZ": Fixture.middayTimeZone]) { $1 }
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
