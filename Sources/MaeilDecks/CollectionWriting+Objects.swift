import Foundation
import MaeilPrograms
import MaeilCore

/// Note types, decks and deck options as Anki's legacy JSON, with every key Anki requires.
extension CollectionWriting {
    static func completeModel(_ type: AnkiNoteType) -> [String: Any] {
        let kept = (try? JSONSerialization.jsonObject(with: Data(type.legacyJSON.utf8))) as? [String: Any] ?? [:]
        let defaults: [String: Any] = [
            "type": type.isCloze ? 1 : 0, "sortf": 0, "css": ".card { font-family: arial; font-size: 20px; text-align: center; }",
            "latexPre": "\\documentclass[12pt]{article}\\begin{document}", "latexPost": "\\end{document}", "latexsvg": false,
            "tags": [] as [Any], "vers": [] as [Any], "req": type.templates.indices.map { [$0, "any", [0]] as [Any] },
        ]
        var model = defaults.merging(kept) { $1 }
        let fields = (kept["flds"] as? [[String: Any]]) ?? type.fields.enumerated().map { ["name": $1, "ord": $0] }
        model["flds"] = fields.enumerated().map { index, field in
            (["name": "Field \(index + 1)", "ord": index, "sticky": false, "rtl": false, "font": "Arial", "size": 20,
              "media": [] as [Any]] as [String: Any]).merging(field) { $1 }
        }
        let templates = (kept["tmpls"] as? [[String: Any]])
            ?? type.templates.enumerated().map { ["name": $1.name, "ord": $0, "qfmt": $1.question, "afmt": $1.answer] }
        model["tmpls"] = templates.enumerated().map { index, template in
            (["name": "Card \(index + 1)", "ord": index, "qfmt": "", "afmt": "", "bqfmt": "", "bafmt": "", "did": NSNull(), "bfont": "",
              "bsize": 0] as [String: Any]).merging(template) { $1 }
        }
        return model
    }

    static func deckJSON(id: Int64, name: String, configID: Int64, description: String = "", now: Int64) -> [String: Any] {
        ["id": id, "name": name, "mod": now, "usn": -1, "conf": configID, "desc": description, "md": false, "dyn": 0,
         "collapsed": false, "browserCollapsed": false,
         "extendNew": 0, "extendRev": 0, "newToday": [0, 0], "revToday": [0, 0], "lrnToday": [0, 0], "timeToday": [0, 0]]
    }

    /// The day's answers as Anki's deck counts them, on Anki's day number of today (a count
    /// of another day is none). Anki counts no learning steps there.
    static func studiedJSON(_ studied: ExportDeck.StudiedToday, today: Int) -> [String: Any] {
        ["newToday": [today, studied.new], "revToday": [today, studied.reviews], "lrnToday": [today, 0], "timeToday": [today, studied.milliseconds]]
    }

    /// A deck's own limits as Anki's deck keeps them; a day limit's day counted from the
    /// collection's creation (a day before it cannot be written, and has long passed).
    static func limitsJSON(_ limits: DeckLimits, createdDay: Int) -> [String: Any] {
        func day(_ limit: DeckLimits.DayLimit?) -> Any {
            guard let limit, limit.day >= createdDay else { return NSNull() }
            return ["limit": limit.limit, "today": limit.day - createdDay]
        }
        return ["reviewLimit": limits.reviewsPerDay ?? NSNull(), "newLimit": limits.newPerDay ?? NSNull(),
                "reviewLimitToday": day(limits.reviewsToday), "newLimitToday": day(limits.newToday)]
    }

    /// A preset as Anki's deck options: the options it came with from Anki, Maeil's values over them.
    static func deckConfigJSON(_ preset: Preset, id: Int64, now: Int64) -> [String: Any] {
        // Anki refuses deck options without these; options made from Anki's newer schema lack them.
        let required: [String: Any] = ["maxTaken": 60, "autoplay": true, "timer": 0, "replayq": true, "dyn": false]
        let kept = preset.ankiConfig.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] } ?? [:]
        var config = required.merging(kept) { $1 }
        let settings = preset.scheduler
        func minutes(_ steps: LearningSteps) -> [Double] { steps.seconds.map { Double($0) / 60 } }
        var new = config["new"] as? [String: Any] ?? ["order": 1]
        new["delays"] = minutes(settings.learningSteps)
        new["perDay"] = preset.newPerDay
        new["ints"] = [settings.graduatingInterval, settings.easyInterval, 0]
        new["initialFactor"] = settings.startingEasePermille
        new["bury"] = preset.buryNew
        var review = config["rev"] as? [String: Any] ?? [:]
        review["perDay"] = preset.reviewsPerDay
        review["ease4"] = Double(settings.easyBonus)
        review["hardFactor"] = Double(settings.hardInterval)
        review["ivlFct"] = Double(settings.intervalModifier)
        review["maxIvl"] = settings.maximumInterval
        review["bury"] = preset.buryReviews
        var lapse = config["lapse"] as? [String: Any] ?? [:]
        lapse["delays"] = minutes(settings.relearningSteps)
        lapse["mult"] = Double(settings.lapseNewInterval)
        lapse["minInt"] = settings.minimumLapseInterval
        lapse["leechFails"] = settings.leechThreshold
        lapse["leechAction"] = settings.leechAction == .suspend ? 0 : 1
        config["new"] = new
        config["rev"] = review
        config["lapse"] = lapse
        config["id"] = id
        config["name"] = preset.name
        config["mod"] = now
        config["usn"] = -1
        config["desiredRetention"] = settings.desiredRetention
        // Anki's default parameters stay as Anki wrote them: none (Anki then uses its defaults).
        let keptDefaults = (kept["fsrsParams6"] as? [Any])?.isEmpty == true && settings.fsrsParameters == .fsrs6Default
        if settings.kind == .fsrs, !keptDefaults { config["fsrsParams6"] = settings.fsrsParameters.weights }
        config["easyDaysPercentages"] = settings.easyDays
        config["buryInterdayLearning"] = preset.buryInterdayLearning
        config["newMix"] = preset.order.newMix.ankiValue
        config["interdayLearningMix"] = preset.order.interdayLearningMix.ankiValue
        config["reviewOrder"] = preset.order.reviews.ankiValue
        config["newGatherPriority"] = preset.order.newGather.ankiValue
        config["newSortOrder"] = preset.order.newSort.ankiValue
        return config
    }
}
