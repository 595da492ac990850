import Foundation

/// A deck's options, shared by the decks that use it (Anki's "preset"): the scheduler's
/// settings and the study day's. Defaults are Anki's; every value a person or a file can set
/// goes through `PresetKey`, which owns its limits.
public struct Preset: Hashable, Sendable, Codable {
    /// The store's id; nil until the preset is saved.
    public var id: Int64?
    public var name: String
    public var scheduler: SchedulerSettings
    public var newPerDay: Int
    public var reviewsPerDay: Int
    /// The hour a new study day starts, in local time.
    public var rolloverHour: Int
    /// Once a card is answered, hide its note's other cards until the next day: new ones,
    /// reviews, learning cards whose step ended on an earlier day (Anki's three burying
    /// switches; a day's queue also takes one card per note of those kinds).
    public var buryNew: Bool
    public var buryReviews: Bool
    public var buryInterdayLearning: Bool
    /// Open a curriculum unit only when every card of the one before has left learning.
    public var curriculumGating: Bool
    /// The order of a day's cards (Anki's display order).
    public var order = StudyOrder()
    /// The Anki deck options it was made from (their legacy JSON), when it came from a package:
    /// written back with Maeil's values over them, so the options Maeil has no use for survive.
    public var ankiConfig: String?

    public init(
        id: Int64? = nil, name: String, scheduler: SchedulerSettings = SchedulerSettings(),
        newPerDay: Int = 20, reviewsPerDay: Int = 200, rolloverHour: Int = 4,
        burySiblings: Bool = true, curriculumGating: Bool = false
    ) {
        (buryNew, buryReviews, buryInterdayLearning) = (burySiblings, burySiblings, false)
        self.id = id
        self.name = name
        self.scheduler = scheduler
        self.newPerDay = newPerDay
        self.reviewsPerDay = reviewsPerDay
        self.rolloverHour = rolloverHour
        self.curriculumGating = curriculumGating
    }

    public static let defaultName = "Default"

    /// All three burying switches as one: on when any is, and set all at once (Maeil's one
    /// switch before it kept Anki's three; learning siblings were never buried then).
    public var burySiblings: Bool {
        get { buryNew || buryReviews || buryInterdayLearning }
        set { (buryNew, buryReviews, buryInterdayLearning) = (newValue, newValue, newValue) }
    }

    /// The id of the Anki deck options it was made from: decks that shared them share it.
    package var ankiConfigID: Int64? {
        let kept = ankiConfig.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        return (kept?["id"] as? NSNumber)?.int64Value
    }

    /// The retention SM-2 is taken to have kept (Anki's "historical retention", `sm2Retention`
    /// in its options): where an FSRS history starts from an SM-2 interval and ease. 0.9, Anki's
    /// default, where the options came from elsewhere or hold none.
    public var historicalRetention: Double {
        let kept = ankiConfig.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        guard let value = (kept?["sm2Retention"] as? NSNumber)?.doubleValue, value > 0, value < 1 else { return 0.9 }
        return value
    }

    /// The study-day clock of decks with this preset, in the learner's time zone.
    public func dayClock(in timeZone: TimeZone) -> DayClock {
        DayClock(timeZone: timeZone, rolloverHour: rolloverHour)
    }
}

extension Preset {
    /// Settings given as command-line options (`--learning-steps 1m,10m`): each checked where
    /// its limits live; a refusal names the option.
    public mutating func set(options: [(key: PresetKey, option: String, value: String?)]) throws(PresetKey.Problem) {
        for case let (key, option, value?) in options {
            do {
                try key.set(.text(value), on: &self)
            } catch {
                throw PresetKey.Problem(description: "--\(option): \(error.description)")
            }
        }
    }
}
