/// Which scheduling algorithm a preset uses.
public enum SchedulerKind: String, Sendable, Codable, CaseIterable {
    /// SuperMemo SM-2 as published in 1990.
    case sm2
    /// Anki's SM-2 variant (v3 scheduler): learning steps, ease changes, fuzz.
    case ankiSM2 = "anki-sm2"
    /// FSRS-6 memory model, scheduled the way Anki's FSRS mode does it.
    case fsrs
}

/// What happens to a card when it becomes a leech.
public enum LeechAction: String, Sendable, Codable, CaseIterable {
    case tag
    case suspend
}

/// Every scheduling setting of a preset, in one value like Anki's deck options. Each scheduler
/// reads the fields it needs. Defaults are Anki's defaults.
///
/// The SM-2 multipliers are `Float` on purpose: Anki computes intervals in 32-bit floating point,
/// and doubles give different days in real cases (see the tests).
public struct SchedulerSettings: Hashable, Sendable, Codable {
    public var kind: SchedulerKind = .ankiSM2
    public var learningSteps: LearningSteps = [60, 600]
    public var relearningSteps: LearningSteps = [600]
    public var graduatingInterval: Int = 1
    public var easyInterval: Int = 4
    public var startingEasePermille: Int = 2500
    public var easyBonus: Float = 1.3
    public var hardInterval: Float = 1.2
    public var intervalModifier: Float = 1.0
    public var lapseNewInterval: Float = 0.0
    public var minimumLapseInterval: Int = 1
    public var maximumInterval: Int = 36500
    /// Lapses at which a card becomes a leech; 0 turns leech detection off.
    public var leechThreshold: Int = 8
    public var leechAction: LeechAction = .tag
    public var desiredRetention: Double = 0.9
    public var fsrsParameters: FSRSParameters = .fsrs6Default
    /// FSRS: keep a card whose interval is under half a day in (re)learning even when the deck
    /// has steps (Anki's "short-term with steps"); without steps that happens anyway.
    public var shortTermWithSteps = false
    /// Anki 24.11's load balancer: within the fuzz range, a review lands preferably on a day with
    /// few cards due. Applies where fuzz does.
    public var loadBalancing = false
    /// Anki's easy days, Monday first: 1 a normal day, 0.5 a reduced one, 0 a day off.
    public var easyDays: [Double] = Array(repeating: 1, count: 7)

    public init(kind: SchedulerKind = .ankiSM2) {
        self.kind = kind
    }

    enum CodingKeys: String, CodingKey {
        case kind, learningSteps, relearningSteps, graduatingInterval, easyInterval, startingEasePermille, easyBonus, hardInterval
        case intervalModifier, lapseNewInterval, minimumLapseInterval, maximumInterval, leechThreshold, leechAction, desiredRetention
        case fsrsParameters, shortTermWithSteps, loadBalancing, easyDays
    }

    /// Settings saved by an older Maeil lack the settings added since: they take their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T { try container.decodeIfPresent(T.self, forKey: key) ?? fallback }
        let defaults = SchedulerSettings()
        kind = try value(.kind, defaults.kind)
        learningSteps = try value(.learningSteps, defaults.learningSteps)
        relearningSteps = try value(.relearningSteps, defaults.relearningSteps)
        graduatingInterval = try value(.graduatingInterval, defaults.graduatingInterval)
        easyInterval = try value(.easyInterval, defaults.easyInterval)
        startingEasePermille = try value(.startingEasePermille, defaults.startingEasePermille)
        easyBonus = try value(.easyBonus, defaults.easyBonus)
        hardInterval = try value(.hardInterval, defaults.hardInterval)
        intervalModifier = try value(.intervalModifier, defaults.intervalModifier)
        lapseNewInterval = try value(.lapseNewInterval, defaults.lapseNewInterval)
        minimumLapseInterval = try value(.minimumLapseInterval, defaults.minimumLapseInterval)
        maximumInterval = try value(.maximumInterval, defaults.maximumInterval)
        leechThreshold = try value(.leechThreshold, defaults.leechThreshold)
        leechAction = try value(.leechAction, defaults.leechAction)
        desiredRetention = try value(.desiredRetention, defaults.desiredRetention)
        fsrsParameters = try value(.fsrsParameters, defaults.fsrsParameters)
        shortTermWithSteps = try value(.shortTermWithSteps, defaults.shortTermWithSteps)
        loadBalancing = try value(.loadBalancing, defaults.loadBalancing)
        let days = try value(.easyDays, defaults.easyDays)
        easyDays = days.count == 7 ? days.map { min(max($0, 0), 1) } : defaults.easyDays
    }

    /// The scheduler these settings describe.
    public func makeScheduler() -> any Scheduler {
        switch kind {
        case .sm2: ClassicSM2Scheduler(settings: self)
        case .ankiSM2: AnkiScheduler(settings: self, fsrs: nil)
        case .fsrs: AnkiScheduler(settings: self, fsrs: FSRS(parameters: fsrsParameters))
        }
    }

    /// `maximum` is the maximum interval but at least 1; `minimum` is raised to 1 and capped
    /// at `maximum`, so a large minimum can never push an interval past the maximum.
    func reviewIntervalBounds(minimum: Int) -> (minimum: Int, maximum: Int) {
        let maximum = max(maximumInterval, 1)
        return (min(max(minimum, 1), maximum), maximum)
    }
}

/// The leech rule: at the threshold, then every half threshold (rounded up) after it.
/// It is an event of the one "again" that reaches 8, 12, 16… lapses, not a lasting flag.
public enum Leech {
    public static func thresholdMet(lapses: Int, threshold: Int) -> Bool {
        guard threshold > 0 else { return false }
        let half = max(1, (threshold + 1) / 2)
        return lapses >= threshold && (lapses - threshold) % half == 0
    }
}

extension SchedulerSettings {
    /// The delay of the step a card in `state` is on by these settings' steps (Anki logs it as
    /// the last interval of an answer that finds the card there), or its scheduled delay where
    /// the steps it is in are none. Nil for a card not in steps.
    public func currentStepDelay(of state: CardState) -> Int? {
        switch state.phase {
        case .learning: learningSteps.currentDelay(atStep: state.step) ?? state.scheduledSeconds
        case .relearning: relearningSteps.currentDelay(atStep: state.step) ?? state.scheduledSeconds
        case .new, .review: nil
        }
    }
}
