import Foundation
import MaeilCore
import Yams

/// A simulation scenario file (Sim/*.yaml). Every field is optional and has the fsrs-rs
/// default; flags on `maeil sim` override any of them.
package struct Scenario: Sendable {
    package var name: String
    package var description = ""
    package var config = SimulationConfig()
    /// Take the item count from this bundled deck (its number of cards).
    package var deck: String?

    package init(name: String) { self.name = name }

    package struct Problem: Error, CustomStringConvertible {
        package let description: String
    }

    package static func load(path: String) throws -> Scenario {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Problem(description: "\(path): cannot read the scenario")
        }
        return try parse(text, file: path)
    }

    package static func parse(_ text: String, file: String) throws -> Scenario {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Problem(description: "\(file): not valid YAML: \(error)")
        }
        guard let root, case .mapping(let map) = root else { throw Problem(description: "\(file): a scenario is a mapping of settings") }
        func fail(_ node: Node?, _ message: String) -> Problem {
            Problem(description: "\(file):\(node?.mark?.line ?? 0):\(node?.mark?.column ?? 0): \(message)")
        }
        let ownKeys = ["name", "description", "deck", "learner"]
        let keys = ownKeys + SimulationConfig.settingNames
        var scenario = Scenario(name: map["name"]?.string ?? ((file as NSString).lastPathComponent as NSString).deletingPathExtension)
        scenario.description = map["description"]?.string ?? ""
        scenario.deck = map["deck"]?.string
        var config = SimulationConfig()
        for (keyNode, value) in map {
            let key = keyNode.string ?? ""
            guard keys.contains(key) else {
                throw fail(keyNode, "unknown setting '\(key)'; the settings are: \(keys.joined(separator: ", "))")
            }
            guard !ownKeys.contains(key) else { continue }
            let input: PresetKey.Input
            switch value {
            case .scalar(let scalar): input = .text(scalar.string)
            case .sequence(let sequence): input = .list(sequence.compactMap(\.string))
            default: throw fail(value, "\(key) must be a value or a list")
            }
            do {
                try config.set(key, input)
            } catch {
                throw fail(value, error.description)
            }
        }
        if let learner = map["learner"] {
            guard case .mapping(let model) = learner else { throw fail(learner, "learner is a mapping") }
            func numbers(_ key: String, count: Int) throws -> [Double]? {
                guard let node = model[key] else { return nil }
                let values = node.array().compactMap(\.float)
                guard values.count == count, values.allSatisfy({ $0 >= 0 }) else { throw fail(node, "learner.\(key) must be \(count) numbers ≥ 0") }
                return values
            }
            if let node = model["parameters"] {
                do {
                    config.learner.parameters = try FSRSParameters(weights: node.array().compactMap(\.float))
                    config.scheduler.fsrsParameters = config.learner.parameters
                } catch {
                    throw fail(node, "learner.parameters: \(error.description)")
                }
            }
            config.learner.firstRatingWeights = try numbers("first_ratings", count: 4) ?? config.learner.firstRatingWeights
            config.learner.reviewRatingWeights = try numbers("review_ratings", count: 3) ?? config.learner.reviewRatingWeights
            config.learner.learningCosts = try numbers("learning_seconds", count: 4) ?? config.learner.learningCosts
            config.learner.reviewCosts = try numbers("review_seconds", count: 4) ?? config.learner.reviewCosts
            config.learner.relearningCosts = try numbers("relearning_seconds", count: 4) ?? config.learner.relearningCosts
        }
        scenario.config = config
        return scenario
    }
}

/// Several runs, summed up: means of the totals and of each day.
package struct SimulationSummary: Sendable, Codable {
    package var runs: Int
    package var memorizedEnd: Double
    package var memorizedEndSD: Double
    package var reviewsTotal: Double
    package var reviewsTotalSD: Double
    package var newTotal: Double
    package var studySecondsTotal: Double
    package var retention: Double?
    /// Compute time of the runs, summed.
    package var elapsedMilliseconds: Double
    /// Day by day, the mean over the runs.
    package var days: [SeriesDay]

    package struct SeriesDay: Sendable, Codable {
        package var day: Int
        package var reviews: Double
        package var new: Double
        package var seconds: Double
        /// Share of the day's reviews recalled (all runs together); nil on days without reviews.
        package var retention: Double?
        /// Expected items remembered: the sum of true retrievability.
        package var memorized: Double
    }

    enum CodingKeys: String, CodingKey {
        case runs, retention, days
        case memorizedEnd = "memorized_end", memorizedEndSD = "memorized_end_sd", reviewsTotal = "reviews_total"
        case reviewsTotalSD = "reviews_total_sd", newTotal = "new_total", studySecondsTotal = "study_seconds_total"
        case elapsedMilliseconds = "elapsed_ms"
    }

    package init(_ results: [SimulationResult]) {
        let count = Double(max(results.count, 1))
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / count }
        func sd(_ values: [Double]) -> Double {
            guard values.count > 1 else { return 0 }
            let m = mean(values)
            return (values.map { ($0 - m) * ($0 - m) }.reduce(0, +) / (count - 1)).squareRoot()
        }
        runs = results.count
        memorizedEnd = mean(results.map(\.memorizedAtEnd))
        memorizedEndSD = sd(results.map(\.memorizedAtEnd))
        reviewsTotal = mean(results.map { Double($0.reviewsTotal) })
        reviewsTotalSD = sd(results.map { Double($0.reviewsTotal) })
        newTotal = mean(results.map { Double($0.newTotal) })
        studySecondsTotal = mean(results.map(\.secondsTotal))
        let reviews = results.reduce(0) { $0 + $1.reviewsTotal }, correct = results.reduce(0) { $0 + $1.correctTotal }
        retention = reviews == 0 ? nil : Double(correct) / Double(reviews)
        elapsedMilliseconds = results.reduce(0) { $0 + $1.elapsedMilliseconds }
        let dayCount = results.map(\.days.count).max() ?? 0
        days = (0..<dayCount).map { day in
            let values = results.compactMap { day < $0.days.count ? $0.days[day] : nil }
            let reviews = values.reduce(0) { $0 + $1.reviews }, correct = values.reduce(0) { $0 + $1.correct }
            return SeriesDay(day: day, reviews: Double(reviews) / count, new: Double(values.reduce(0) { $0 + $1.new }) / count,
                             seconds: values.reduce(0) { $0 + $1.seconds } / count,
                             retention: reviews == 0 ? nil : Double(correct) / Double(reviews),
                             memorized: values.reduce(0) { $0 + $1.memorized } / count)
        }
    }
}
