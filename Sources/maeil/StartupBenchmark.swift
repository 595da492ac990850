import Foundation
import MaeilCore
import MaeilStore
#if canImport(Glibc)
import Glibc
#endif

/// Start-up to the first prompt: the real binary on a pseudo-terminal, with a 100,000-card
/// collection, timed from spawning it to the prompt appearing.
enum StartupBenchmark {
    static var all: [Benchmark] {
        [Benchmark(name: "repl.startup") {
            [try StoreBenchmarks.withFixture(cards: 100_000, due: 3000) { collection, _ in
                var times: [Double] = []
                for _ in 0..<7 { times.append(try timeToPrompt(collectionPath: collection.path)) }
                return BenchFigure(name: "repl.startup_100k_to_first_prompt_ms", value: times.sorted()[times.count / 2] * 1000, unit: "ms")
            }]
        }]
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func timeToPrompt(collectionPath: String) throws -> Double {
        var master: Int32 = -1, slave: Int32 = -1
        guard openPseudoTerminal(&master, &slave, nil, nil, nil) == 0 else { throw Failure(description: "no pseudo-terminal") }
        defer { close(master) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_adddup2(&actions, slave, fd) }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let words: [String] = [executable, "--collection", collectionPath]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables: [String] = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1", "MAEIL_SPEECH": "stub", "TERM": "xterm"]) { $1 }
            .map { "\($0.key)=\($0.value)" }
        let environment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        guard posix_spawn(&pid, executable, &actions, nil, argv, environment) == 0 else { throw Failure(description: "cannot start \(executable)") }
        close(slave)
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let prompt = Array("매일 › ".utf8)
        var elapsed = 0.0
        while true {
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { throw Failure(description: "the prompt never appeared") }
            output += buffer.prefix(count)
            if output.count >= prompt.count, output.indices.dropLast(prompt.count - 1).contains(where: { output[$0..<$0 + prompt.count].elementsEqual(prompt) }) {
                elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                break
            }
        }
        _ = "quit\n".withCString { write(master, $0, 5) }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return elapsed
    }
}

/// glibc's openpty (in libc since 2.34); Glibc's module does not export <pty.h>.
@_silgen_name("openpty")
func openPseudoTerminal(_ master: UnsafeMutablePointer<Int32>, _ slave: UnsafeMutablePointer<Int32>, _ name: UnsafeMutablePointer<CChar>?,
                        _ termios: UnsafeRawPointer?, _ window: UnsafeRawPointer?) -> Int32
