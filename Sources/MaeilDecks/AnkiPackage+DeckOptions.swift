import Foundation
import MaeilCore
import MaeilPrograms

extension AnkiPackage {
    /// Anki's legacy deck options JSON, as a Maeil preset. The JSON is untrusted: every number is
    /// clamped into the range a Maeil deck file may hold, so no option can reach the scheduler
    /// that it could not get from a deck Maeil validated.
    static func deckOptions(_ config: [String: Any], fsrs: Bool) -> AnkiPackage.DeckOptions {
        var options = AnkiPackage.DeckOptions()
        let new = config["new"] as? [String: Any] ?? [:]
        let review = config["rev"] as? [String: Any] ?? [:]
        let lapse = config["lapse"] as? [String: Any] ?? [:]
        func number(_ value: Any?) -> Double? {
            let number: Double?
            switch value {
            case let double as Double: number = double
            case let whole as Int: number = Double(whole)
            case let whole as Int64: number = Double(whole)
            default: number = nil
            }
            return number.flatMap { $0.isFinite ? $0 : nil }
        }
        func whole(_ value: Any?, _ key: PresetKey) -> Int? {
            let range = key.wholeRange
            return number(value).map { Int($0.clamped(to: Double(range.lowerBound)...Double(range.upperBound)).rounded()) }
        }
        func fraction(_ value: Any?, _ key: PresetKey) -> Float? { number(value).map { Float($0.clamped(to: key.numberRange)) } }
        func minutes(_ value: Any?) -> [Double]? {
            guard let list = value as? [Any] else { return nil }
            let limit = Double(LearningSteps.secondsRange.upperBound) / 60
            return list.prefix(64).compactMap(number).filter { $0 > 0 }.map { min($0, limit) }
        }
        func seconds(_ minutes: [Double]) -> LearningSteps {
            LearningSteps(seconds: minutes.map { Int(($0 * 60).rounded()).clamped(to: LearningSteps.secondsRange) })
        }
        if let delays = minutes(new["delays"]) { options.learningSteps = delays }
        if let delays = minutes(lapse["delays"]) { options.relearningSteps = delays }
        var preset = Preset(name: "")
        preset.scheduler.learningSteps = seconds(options.learningSteps)
        preset.scheduler.relearningSteps = seconds(options.relearningSteps)
        if let perDay = whole(new["perDay"], .newPerDay) { preset.newPerDay = perDay }
        if let perDay = whole(review["perDay"], .reviewsPerDay) { preset.reviewsPerDay = perDay }
        if let ints = new["ints"] as? [Any], ints.count >= 2 {
            if let days = whole(ints[0], .graduatingInterval) { preset.scheduler.graduatingInterval = days }
            if let days = whole(ints[1], .easyInterval) { preset.scheduler.easyInterval = days }
        }
        if let factor = number(new["initialFactor"]), factor >= 1300 {
            preset.scheduler.startingEasePermille = Int((factor / 1000).clamped(to: PresetKey.startingEase.numberRange) * 1000)
        }
        if let bonus = fraction(review["ease4"], .easyBonus) { preset.scheduler.easyBonus = bonus }
        if let hard = fraction(review["hardFactor"], .hardInterval) { preset.scheduler.hardInterval = hard }
        if let modifier = fraction(review["ivlFct"], .intervalModifier) { preset.scheduler.intervalModifier = modifier }
        if let maximum = whole(review["maxIvl"], .maximumInterval) { preset.scheduler.maximumInterval = maximum }
        if let multiplier = fraction(lapse["mult"], .lapseNewInterval) { preset.scheduler.lapseNewInterval = multiplier }
        if let minimum = whole(lapse["minInt"], .minimumLapseInterval) { preset.scheduler.minimumLapseInterval = minimum }
        if let fails = whole(lapse["leechFails"], .leechThreshold) { preset.scheduler.leechThreshold = fails }
        if let action = number(lapse["leechAction"]) { preset.scheduler.leechAction = action == 0 ? .suspend : .tag }
        // Anki's three burying switches, all off by default.
        preset.buryNew = (new["bury"] as? NSNumber)?.boolValue == true
        preset.buryReviews = (review["bury"] as? NSNumber)?.boolValue == true
        preset.buryInterdayLearning = (config["buryInterdayLearning"] as? NSNumber)?.boolValue == true
        // The name the decks that share these options know them by.
        if let name = config["name"] as? String, !name.isEmpty { preset.name = DeckName.canonical(name) }
        if let days = config["easyDaysPercentages"] as? [Any], days.count == 7 {
            let loads = days.compactMap(number)
            if loads.count == 7 { preset.scheduler.easyDays = loads.map { $0 >= 1 ? 1 : ($0 <= 0 ? 0 : 0.5) } }
        }
        // The display order; a number only a newer Anki knows keeps Anki's default.
        func choice<Choice: AnkiNumbered>(_ key: String, _: Choice.Type) -> Choice? { number(config[key]).flatMap { Choice(ankiValue: Int($0)) } }
        if let mix = choice("newMix", StudyOrder.Mix.self) { preset.order.newMix = mix }
        if let mix = choice("interdayLearningMix", StudyOrder.Mix.self) { preset.order.interdayLearningMix = mix }
        if let order = choice("reviewOrder", StudyOrder.ReviewOrder.self) { preset.order.reviews = order }
        if let gather = choice("newGatherPriority", StudyOrder.NewGather.self) { preset.order.newGather = gather }
        if let sort = choice("newSortOrder", StudyOrder.NewSort.self) { preset.order.newSort = sort }
        if fsrs {
            // FSRS-6 parameters where Anki has them, else FSRS-5's; none means Anki's defaults.
            preset.scheduler.kind = .fsrs
            for key in ["fsrsParams6", "fsrsParams5"] {
                guard let list = config[key] as? [Any], !list.isEmpty else { continue }
                if let parameters = FSRSParameters(clamping: list.compactMap(number)) { preset.scheduler.fsrsParameters = parameters }
                break
            }
        }
        // Kept under SM-2 too: it is the preset's, and FSRS takes it when it is turned on.
        if let retention = number(config["desiredRetention"]) {
            preset.scheduler.desiredRetention = retention.clamped(to: PresetKey.desiredRetention.numberRange)
        }
        preset.ankiConfig = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
        options.preset = preset
        return options
    }


    /// The preset Anki's options stand for, from the legacy JSON a preset keeps of them.
    package static func preset(ankiConfig json: String, fsrs: Bool) -> Preset? {
        guard let config = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else { return nil }
        return deckOptions(config, fsrs: fsrs).preset
    }

    /// When Anki last changed these options (its "mod", seconds); 0 when it does not say.
    package static func modified(ankiConfig json: String) -> Int64 {
        let config = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        return (config?["mod"] as? NSNumber)?.int64Value ?? 0
    }
}
