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
    /// Bury a card's siblings until the next day once it is answered.
    public var burySiblings: Bool
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
        self.id = id
        self.name = name
        self.scheduler = scheduler
        self.newPerDay = newPerDay
        self.reviewsPerDay = reviewsPerDay
        self.rolloverHour = rolloverHour
        self.burySiblings = burySiblings
        self.curriculumGating = curriculumGating
    }

    public static let defaultName = "Default"

    /// The id of the Anki deck options it was made from: decks that shared them share it.
    package var ankiConfigID: Int64? {
        let kept = ankiConfig.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        return (kept?["id"] as? NSNumber)?.int64Value
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
