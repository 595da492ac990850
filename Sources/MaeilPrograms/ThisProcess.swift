import Foundation

/// The running program as the system knows it, never from what a loader may have left out: a
/// program run from PATH is given only its name as its first word, and under an LD_PRELOAD-ed
/// libfaketime Swift sees no words at all.
package enum ThisProcess {
    /// The environment variables, read once: the entry point hands them down from here.
    package static let variables = ProcessInfo.processInfo.environment

    /// The executable, from /proc/self/exe.
    package static var executable: URL {
        if let own = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: own)
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? "/").resolvingSymlinksInPath()
    }

    /// `name` in the executable's folder.
    package static func sibling(_ name: String) -> String {
        executable.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The words the program was started with, its name first: Swift's, or else the kernel's
    /// (/proc/self/cmdline).
    package static var arguments: [String] {
        if !CommandLine.arguments.isEmpty { return CommandLine.arguments }
        guard let data = FileManager.default.contents(atPath: "/proc/self/cmdline") else { return [] }
        var words = data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if words.last == "" { words.removeLast() }
        return words
    }
}
