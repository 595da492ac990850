import Foundation
import MaeilCore
import Synchronization

/// Decoded deck templates, preset settings, study orders and day clocks, by their stored text. Building a
/// queue or showing a card reads the same deck and preset again and again; decoding their
/// JSON each time cost more than the queue's own queries.
enum DecodeCache {
    private static let templates = Mutex<[String: [CardTemplate]]>([:])
    private static let settings = Mutex<[String: SchedulerSettings]>([:])
    private static let clocks = Mutex<[String: DayClock]>([:])
    private static let orders = Mutex<[String: StudyOrder]>([:])
    private static let limit = 256

    static func templates(_ text: String) throws -> [CardTemplate] {
        if let cached = templates.withLock({ $0[text] }) { return cached }
        let decoded = try JSONDecoder().decode([CardTemplate].self, from: Data(text.utf8))
        templates.withLock { store(&$0, text, decoded) }
        return decoded
    }

    static func settings(_ text: String) throws -> SchedulerSettings {
        if let cached = settings.withLock({ $0[text] }) { return cached }
        let decoded = try JSONDecoder().decode(SchedulerSettings.self, from: Data(text.utf8))
        settings.withLock { store(&$0, text, decoded) }
        return decoded
    }

    static func studyOrder(_ text: String) throws -> StudyOrder {
        if let cached = orders.withLock({ $0[text] }) { return cached }
        let decoded = try JSONDecoder().decode(StudyOrder.self, from: Data(text.utf8))
        orders.withLock { store(&$0, text, decoded) }
        return decoded
    }

    static func clock(timeZone: TimeZone, rolloverHour: Int) -> DayClock {
        let key = "\(timeZone.identifier)/\(rolloverHour)"
        if let cached = clocks.withLock({ $0[key] }) { return cached }
        let clock = DayClock(timeZone: timeZone, rolloverHour: rolloverHour)
        clocks.withLock { store(&$0, key, clock) }
        return clock
    }

    private static func store<Value>(_ cache: inout [String: Value], _ key: String, _ value: Value) {
        if cache.count >= limit { cache.removeAll() }
        cache[key] = value
    }
}
