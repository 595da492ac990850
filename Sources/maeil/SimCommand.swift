import ArgumentParser
import Foundation
import MaeilCore
import MaeilSimulator

struct SimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sim", abstract: "Simulate a study schedule.")
    @Option var runs = 1
    @Option var seed: UInt64 = 42
    func run() throws {
        var config = SimulationConfig()
        config.runs = runs
        config.seed = seed
        for result in Simulator(config: config).runAll() {
            print(String(format: "mem_end %.1f reviews %d correct %d learned %d cost %.0f elapsed %.1f ms mem30 %.1f mem100 %.1f mem200 %.1f",
                         result.memorizedAtEnd, result.reviewsTotal, result.correctTotal, result.newTotal, result.secondsTotal,
                         result.elapsedMilliseconds, result.days[30].memorized, result.days[100].memorized, result.days[200].memorized))
        }
    }
}
