/// The four answer buttons, numbered as Anki and FSRS number them.
public enum Rating: Int, CaseIterable, Sendable, Codable, Comparable {
    case again = 1
    case hard = 2
    case good = 3
    case easy = 4

    public static func < (lhs: Rating, rhs: Rating) -> Bool { lhs.rawValue < rhs.rawValue }

    public var name: String {
        switch self {
        case .again: "again"
        case .hard: "hard"
        case .good: "good"
        case .easy: "easy"
        }
    }

    /// Accepts a name ("good"), its first letter ("g") or the button number ("3").
    public init?(parsing text: String) {
        let key = text.lowercased()
        if let rating = Rating.allCases.first(where: { $0.name == key || String($0.name.prefix(1)) == key }) {
            self = rating
        } else if let number = Int(key), let rating = Rating(rawValue: number) {
            self = rating
        } else {
            return nil
        }
    }

    /// A pass is any answer but "again".
    public var isPass: Bool { self != .again }
}

/// A set of ratings in one byte: the FSRS proposals an answer needs, without an array.
public struct RatingSet: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rating: Rating) { self.init(rawValue: 1 << UInt8(rating.rawValue - 1)) }

    public static let again = RatingSet(.again), hard = RatingSet(.hard), good = RatingSet(.good), easy = RatingSet(.easy)
    public static let passes: RatingSet = [.hard, .good, .easy]
    public static let all: RatingSet = [.again, .hard, .good, .easy]

    public func contains(_ rating: Rating) -> Bool { rawValue & 1 << UInt8(rating.rawValue - 1) != 0 }
}

/// SuperMemo's answer quality, 0 (blackout) to 5 (perfect), for classic SM-2.
public struct Quality: RawRepresentable, Hashable, Sendable, Codable, Comparable {
    public let rawValue: Int

    public init?(rawValue: Int) {
        guard (0...5).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    public static func < (lhs: Quality, rhs: Quality) -> Bool { lhs.rawValue < rhs.rawValue }

    /// SM-2 calls an answer of quality 3 or more correct.
    public var isPass: Bool { rawValue >= 3 }

    /// The quality each button stands for: again 1, hard 3, good 4, easy 5.
    public init(_ rating: Rating) {
        switch rating {
        case .again: rawValue = 1
        case .hard: rawValue = 3
        case .good: rawValue = 4
        case .easy: rawValue = 5
        }
    }

    /// The button closest to a quality, for logging SM-2 answers in Anki's terms.
    public var rating: Rating {
        switch rawValue {
        case ..<3: .again
        case 3: .hard
        case 4: .good
        default: .easy
        }
    }
}
