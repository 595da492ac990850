import Foundation

/// Writes an executable script for a test to run, at `path`.
///
/// A shell writes it, not this process: tests run in parallel, and a fork for another test's
/// program, taken while this process held the file open for writing, keeps it open in the child
/// and makes running the script fail with "Text file busy".
package func writeExecutableScript(_ text: String, to path: String) throws {
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", "cat > \"$0\" && chmod 755 \"$0\"", path]
    let input = Pipe()
    shell.standardInput = input
    try shell.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    shell.waitUntilExit()
    guard shell.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
}
