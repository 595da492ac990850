import Foundation

/// Colour and emphasis, only for terminals that want them: off when NO_COLOR is set
/// (the NO_COLOR convention), when TERM is "dumb", and when the output is not a terminal.
public struct Style: Sendable {
    public let enabled: Bool

    public init(enabled: Bool) { self.enabled = enabled }

    public static func forStandardOutput(environment: [String: String] = ProcessInfo.processInfo.environment) -> Style {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Style(enabled: isatty(STDOUT_FILENO) == 1 && !noColor && environment["TERM"] != "dumb")
    }

    public static let plain = Style(enabled: false)

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
    public func red(_ text: String) -> String { wrap(text, "31") }
    public func green(_ text: String) -> String { wrap(text, "32") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func blue(_ text: String) -> String { wrap(text, "34") }
    public func cyan(_ text: String) -> String { wrap(text, "36") }
    public func underline(_ text: String) -> String { wrap(text, "4") }
    public func italic(_ text: String) -> String { wrap(text, "3") }
}
