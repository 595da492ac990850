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

    static func timeToPrompt(collectionPath: String) throws -> Double {
        var master: Int32 = -1, slave: Int32 = -1
        guard openPseudoTerminal(&master, &slave, nil, nil, nil) == 0 else { throw BenchFailure(description: "no pseudo-terminal") }
        defer { close(master) }
        let start = DispatchTime.now().uptimeNanoseconds
        let pid = try MaeilChild.spawn(["--collection", collectionPath], environment: ["NO_COLOR": "1", "MAEIL_SPEECH": "stub", "TERM": "xterm"]) { actions in
            for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_adddup2(&actions, slave, fd) }
        }
        close(slave)
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let prompt = Array("매일 › ".utf8)
        var elapsed = 0.0
        while true {
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { throw BenchFailure(description: "the prompt never appeared") }
            output += buffer.prefix(count)
            if output.count >= prompt.count, output.indices.dropLast(prompt.count - 1).contains(where: { output[$0..<$0 + prompt.count].elementsEqual(prompt) }) {
                elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                break
            }
        }
        _ = "quit\n".withCString { write(master, $0, 5) }
        _ = MaeilChild.wait(pid)
        return elapsed
    }
}

/// glibc's openpty (in libc since 2.34); Glibc's module does not export <pty.h>.
@_silgen_name("openpty")
func openPseudoTerminal(_ master: UnsafeMutablePointer<Int32>, _ slave: UnsafeMutablePointer<Int32>, _ name: UnsafeMutablePointer<CChar>?,
                        _ termios: UnsafeRawPointer?, _ window: UnsafeRawPointer?) -> Int32
