import Foundation
import MaeilCore
import MaeilPrograms
import MaeilSession
import MaeilSimulator
import MaeilStore

/// Where `maeil sim` starts from, and the files and JSON it writes.
package struct SimulationOutput {
    package var csv: String?
    package var seriesJSON: String?
    package var svg: String?

    package init(csv: String?, seriesJSON: String?, svg: String?) {
        self.csv = csv
        self.seriesJSON = seriesJSON
        self.svg = svg
    }

    /// The scenario (a file, a name in Sim/, or the default) and its configuration, starting
    /// from `deck` of the collection when one is named; a scenario naming a bundled deck takes
    /// as many items as that deck has cards, unless the items are given.
    package static func start(_ name: String?, deck: String?, itemsGiven: Bool, collection: () throws -> Collection, now: Date,
                             timeZone: TimeZone) throws -> (Scenario, SimulationConfig) {
        var scenario = try ScenarioFiles.load(name)
        var config = scenario.config
        if let bundled = scenario.deck, !itemsGiven { config.items = try ScenarioFiles.cardCount(bundledDeck: bundled) }
        if let deck {
            let collection = try collection()
            let chosen = try DeckNames.resolve([deck], in: collection)
            try SimulationStart.configure(&config, collection: collection, decks: chosen, now: now, timeZone: timeZone)
            scenario.name = chosen.map(\.name).joined(separator: ", ")
        }
        return (scenario, config)
    }

    /// The series (CSV, JSON) and the chart, to the files named.
    package func write(_ report: SimulationReport, scenario: Scenario) throws {
        switch report {
        case .single(let run):
            try write(run.summary.csv, to: csv)
            try write(try JSONOutput.string(run.summary.days), to: seriesJSON)
            try write(SimChart.svg(run.summary), to: svg)
        case .sweep(let run):
            try write(run.chart(title: scenario.name), to: svg)
        case .comparison(let run):
            try write(run.chart(title: scenario.name), to: svg)
        }
    }

    func write(_ text: @autoclosure () throws -> String, to path: String?) throws {
        guard let path else { return }
        do {
            try Data(try text().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw UserError("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// `sim --json`; a single run's also gives this process's peak memory.
    package static func json(_ report: SimulationReport, scenario: Scenario, config: SimulationConfig) throws -> String {
        switch report {
        case .single(let run):
            var json = run.json(leading: [("scenario", scenario.name), ("scheduler", config.scheduler.kind.rawValue),
                                          ("intervals", config.intervals.rawValue), ("items", config.items),
                                          ("days", config.days)])
            if let megabytes = ProcessMemory.peakMegabytes() { json.fields.append(("peak_memory_mb", megabytes)) }
            return try JSONOutput.string(json)
        case .sweep(let run): return try JSONOutput.string(run.json)
        case .comparison(let run): return try JSONOutput.string(run.json)
        }
    }
}
