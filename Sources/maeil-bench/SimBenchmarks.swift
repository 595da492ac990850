import Foundation
import MaeilSimulator
#if canImport(Glibc)
import Glibc
#endif

/// The simulator's targets (issues 7 and 17): the fsrs-rs comparison scenario, one run on every
/// core and on one, beside fsrs-rs; the 100,000-item, ten-year stress run; the peak memory of both.
enum SimBenchmarks {
    static var all: [Benchmark] {
        [
            Benchmark(name: "sim.10k_365") {
                var config = SimulationConfig()
                config.items = 10_000
                config.days = 365
                config.newPerDay = 20
                config.reviewsPerDay = 200
                let simulator = Simulator(config: config)
                let cores = ProcessInfo.processInfo.activeProcessorCount
                // The same result on one core and on all of them; the run is timed on both.
                let oneCore = simulator.run(threads: 1), allCores = simulator.run(threads: cores)
                precondition(oneCore.reviewsTotal > 0 && oneCore.days == allCores.days, "a run must not depend on its threads")
                let seconds = Benchmarks.bestTime(repeats: 15) { _ = simulator.run(threads: cores) }
                let oneCoreSeconds = Benchmarks.bestTime(repeats: 15) { _ = simulator.run(threads: 1) }
                var figures = [BenchFigure(name: "sim.10k_items_365_days_ms", value: seconds * 1000, unit: "ms"),
                               BenchFigure(name: "sim.10k_items_365_days_cores", value: Double(cores), unit: ""),
                               BenchFigure(name: "sim.10k_items_365_days_one_core_ms", value: oneCoreSeconds * 1000, unit: "ms")]
                // fsrs-rs simulating the same scenario in the same minute, for the ratio the target names.
                let fsrsRS = try fsrsRSMilliseconds(items: config.items, days: config.days, newPerDay: config.newPerDay ?? 0, reviewsPerDay: config.reviewsPerDay ?? 0)
                if let fsrsRS {
                    figures.append(BenchFigure(name: "sim.fsrs_rs_10k_items_365_days_ms", value: fsrsRS, unit: "ms"))
                    figures.append(BenchFigure(name: "sim.10k_items_365_days_ratio_to_fsrs_rs", value: seconds * 1000 / fsrsRS, unit: "×"))
                    figures.append(BenchFigure(name: "sim.10k_items_365_days_one_core_ratio_to_fsrs_rs", value: oneCoreSeconds * 1000 / fsrsRS, unit: "×"))
                }
                // Beside one CPU-bound process, then one per core: every core's run against the
                // one-core run in the same conditions (it must never be slower).
                for busy in Set([1, cores]).sorted() {
                    let hogs = try BusyProcesses(count: busy)
                    defer { hogs.stop() }
                    // Taken in turns and compared by their medians: a busy machine's best run is
                    // the one the other processes happened to leave alone.
                    var times: (all: [Double], one: [Double]) = ([], [])
                    for _ in 0..<21 {
                        times.all.append(Benchmarks.bestTime(repeats: 1) { _ = simulator.run(threads: cores) })
                        times.one.append(Benchmarks.bestTime(repeats: 1) { _ = simulator.run(threads: 1) })
                    }
                    let busySeconds = times.all.sorted()[10], busyOneCore = times.one.sorted()[10]
                    let name = "sim.10k_items_365_days_beside_\(busy)_busy"
                    figures.append(BenchFigure(name: name + "_ms", value: busySeconds * 1000, unit: "ms"))
                    figures.append(BenchFigure(name: name + "_one_core_ms", value: busyOneCore * 1000, unit: "ms"))
                    figures.append(BenchFigure(name: name + "_per_one_core", value: busySeconds / busyOneCore, unit: "×"))
                    if let fsrsRSBusy = try fsrsRSMilliseconds(items: config.items, days: config.days, newPerDay: config.newPerDay ?? 0,
                                                              reviewsPerDay: config.reviewsPerDay ?? 0) {
                        figures.append(BenchFigure(name: name + "_fsrs_rs_ms", value: fsrsRSBusy, unit: "ms"))
                    }
                }
                return figures
            },
            Benchmark(name: "sim.100k_3650") {
                // In a child process each, so each peak resident set is the run's own.
                let stress = try child(items: 100_000, days: 3650)
                let fewerItems = try child(items: 10_000, days: 3650)
                let fewerDays = try child(items: 100_000, days: 365)
                return [
                    BenchFigure(name: "sim.100k_items_3650_days_s", value: stress.seconds, unit: "s"),
                    BenchFigure(name: "sim.100k_items_3650_days_peak_rss_mb", value: stress.megabytes, unit: "MB"),
                    BenchFigure(name: "sim.10k_items_3650_days_peak_rss_mb", value: fewerItems.megabytes, unit: "MB"),
                    BenchFigure(name: "sim.100k_items_365_days_peak_rss_mb", value: fewerDays.megabytes, unit: "MB"),
                ]
            },
        ]
    }

    /// fsrs-rs-python's `simulate` with the same scenario (its default learner, which Maeil's
    /// default scenario follows; no time budget), best of 15 as Maeil's figure; nil when the
    /// package is not installed (scripts/setup puts it in .build/anki-venv).
    static func fsrsRSMilliseconds(items: Int, days: Int, newPerDay: Int, reviewsPerDay: Int) throws -> Double? {
        let script = """
            import sys, time
            from fsrs_rs_python import simulate, default_simulator_config, DEFAULT_PARAMETERS
            config = default_simulator_config()
            config.deck_size, config.learn_span, config.learn_limit, config.review_limit = map(int, sys.argv[1:5])
            config.max_cost_perday = 1e12
            best = float("inf")
            for _ in range(15):
                start = time.perf_counter()
                simulate(DEFAULT_PARAMETERS, 0.9, config, seed=42)
                best = min(best, time.perf_counter() - start)
            print(best * 1000)
            """
        return try FSRSRSPython.number(script: script, arguments: ["\(items)", "\(days)", "\(newPerDay)", "\(reviewsPerDay)"])
    }

    /// Runs `maeil sim` with 30 new cards a day and no review limit in a child process: the
    /// simulation's own time (elapsed_ms) and the child's peak resident memory, as it reports it.
    static func child(items: Int, days: Int) throws -> (seconds: Double, megabytes: Double) {
        let output = try MaeilChild.output(["sim", "--items", "\(items)", "--days", "\(days)", "--new-per-day", "30",
                                            "--reviews-per-day", "none", "--seed", "11", "--json"])
        guard let summary = try JSONSerialization.jsonObject(with: output) as? [String: Any],
              let milliseconds = summary["elapsed_ms"] as? Double, let megabytes = summary["peak_memory_mb"] as? Double else {
            throw BenchFailure(description: "maeil sim printed no summary with its time and memory: \(String(decoding: output, as: UTF8.self))")
        }
        return (milliseconds / 1000, megabytes)
    }
}

/// CPU-bound processes (a shell's endless loop each) that the benchmarks run beside: the
/// machine as busy as a build or a video call leaves it.
final class BusyProcesses {
    private var pids: [pid_t] = []

    init(count: Int) throws {
        for _ in 0..<count {
            var pid: pid_t = 0
            // Each checks now and then that the benchmark is still there: one killed midway
            // (a closed pipe, Ctrl-C) must not leave loops that skew every later measurement.
            let loop = "while kill -0 \(getpid()) 2>/dev/null; do i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; done"
            let words = ["/bin/sh", "-c", loop]
            let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else { throw BenchFailure(description: "cannot start /bin/sh") }
            pids.append(pid)
        }
        usleep(200_000)  // under way before anything is timed
    }

    func stop() {
        for pid in pids {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        pids = []
    }

    deinit { stop() }
}
