import Foundation
import MaeilPrograms
#if canImport(Glibc)
import Glibc
#endif

/// The `maeil` binary beside this one, run in a child process: start-up, and the figures that
/// need a process of their own (each peak resident set is then the child's alone).
enum MaeilChild {
    /// `maeil` in this executable's own folder, found from the executable itself.
    static var executable: String { ThisProcess.sibling("maeil") }

    /// Starts `maeil ARGUMENTS` with this process's environment and `environment` on top;
    /// `files` sets up its standard input, output and error. posix_spawn, not fork: the child
    /// starts with none of this process's pages.
    static func spawn(_ arguments: [String], environment: [String: String] = [:],
                      files: (inout posix_spawn_file_actions_t) -> Void) throws -> pid_t {
        let executable = Self.executable
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw BenchFailure(description: "\(executable) is not built; run `swift build -c release`")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        files(&actions)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let environ: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { environ.forEach { free($0) } }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
            throw BenchFailure(description: "cannot start \(executable)")
        }
        return pid
    }

    /// The child's exit status once it ends.
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xFF
    }

    /// Runs `maeil ARGUMENTS` to its end and returns what it printed on standard output.
    static func output(_ arguments: [String]) throws -> Data {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw BenchFailure(description: "no pipe") }
        let pid = try spawn(arguments) { actions in
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipe[0])
        }
        close(pipe[1])
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipe[0], &buffer, buffer.count)
            guard count > 0 else { break }
            output.append(contentsOf: buffer.prefix(count))
        }
        close(pipe[0])
        _ = wait(pid)
        return output
    }

    /// Runs `maeil ARGUMENTS` with its output dropped; its exit status and its peak resident
    /// memory, which the child reads itself (VmHWM) as it exits.
    /// `input`: what the child reads on standard input (nothing when nil).
    static func peakMemory(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> (status: Int32, megabytes: Double) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-peak-\(UUID().uuidString)").path
        defer { unlink(report) }
        let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-input-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: inputFile, contents: Data((input ?? "").utf8))
        defer { unlink(inputFile) }
        let pid = try spawn(arguments, environment: environment.merging(["MAEIL_PEAK_MEMORY_TO": report]) { $1 }) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, inputFile, O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let status = wait(pid)
        guard let text = try? String(contentsOfFile: report, encoding: .utf8),
              let megabytes = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchFailure(description: "the child reported no peak memory")
        }
        return (status, megabytes)
    }
}
