import Foundation
import MaeilPrograms
import MaeilTestSupport
import Testing

@Suite("Programs Maeil runs when the system has them")
struct ExternalProgramTests {
    /// A folder with an executable script and a file that is not executable.
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-programs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try writeExecutableScript("#!/bin/sh\necho \"args: $*\"\ncat\nexit 3\n", to: folder.appendingPathComponent("echo-back").path)
        try "not a program".write(to: folder.appendingPathComponent("plain"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func onlyExecutablesOnTheSearchPathAreFound() throws {
        let folder = try folder()
        let path = "/nonexistent:\(folder.path)"
        #expect(ExternalProgram.find("echo-back", in: path) == folder.appendingPathComponent("echo-back").path)
        #expect(ExternalProgram.find("plain", in: path) == nil)
        #expect(ExternalProgram.find("no-such-program", in: path) == nil)
    }

    @Test func aProgramGetsItsArgumentsAndInputAndGivesItsStatusAndOutput() throws {
        let program = try folder().appendingPathComponent("echo-back").path
        let result = try ExternalProgram.run(program, ["-w/FILE", "김치"], input: "한글 input\n")
        #expect(result.status == 3)
        #expect(result.output == "args: -w/FILE 김치\n한글 input\n")
    }

    @Test func aSiblingIsFoundFromTheExecutableItself() {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let sibling = ThisProcess.sibling("maeil")
        #expect(sibling == URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("maeil").path)
        #expect(sibling.hasPrefix("/"))
    }

    /// The peak is never below what the process holds now, and holds a block it touched.
    @Test func thePeakMemoryIsThisProcesss() throws {
        var block = [UInt8](repeating: 1, count: 64 << 20)
        block[block.count - 1] = 2
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let resident = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Double($0.split(separator: " ").dropFirst().first ?? "") }) / 1024
        let peak = try #require(ProcessMemory.peakMegabytes())
        #expect(peak >= resident - 1, "peak \(peak) MB, resident \(resident) MB")
        #expect(peak >= 64, "\(peak) MB")
        #expect(block.last == 2)
    }
}
