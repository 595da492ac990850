import Foundation

/// This process's peak resident memory so far. Linux's VmHWM counts this program image only;
/// ru_maxrss would also count the parent's memory when the process was started by posix_spawn.
package enum ProcessMemory {
    package static func peakMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes / 1024
    }

    /// When $MAEIL_PEAK_MEMORY_TO names a file, the figure is written there as the process
    /// exits: `maeil bench` measures a child this way, since the kernel's own figure for a
    /// spawned child also counts the parent's pages from before the exec.
    package static func reportPeakAtExit() {
        guard ThisProcess.variables["MAEIL_PEAK_MEMORY_TO"] != nil else { return }
        atexit {
            guard let path = ThisProcess.variables["MAEIL_PEAK_MEMORY_TO"], let megabytes = ProcessMemory.peakMegabytes() else { return }
            try? Data("\(megabytes)\n".utf8).write(to: URL(fileURLWithPath: path))
        }
    }
}
