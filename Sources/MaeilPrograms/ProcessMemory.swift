import Foundation

/// This process's peak resident memory so far. Linux's VmHWM counts this program image only;
/// ru_maxrss would also count the parent's memory when the process was started by posix_spawn.
public enum ProcessMemory {
    public static func peakMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes / 1024
    }

    /// Writes the figure to `path`, for a parent measuring this process.
    public static func writePeak(to path: String?) {
        guard let path, let megabytes = peakMegabytes() else { return }
        try? Data("\(megabytes)\n".utf8).write(to: URL(fileURLWithPath: path))
    }
}
