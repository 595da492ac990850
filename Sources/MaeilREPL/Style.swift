import Foundation
import MaeilPrograms

/// Colour and emphasis, only for terminals that want them: off when NO_COLOR is set
/// (the NO_COLOR convention), when TERM is "dumb", and when the output is not a terminal.
package struct Style: Sendable {
    package let enabled: Bool

    package init(enabled: Bool) { self.enabled = enabled }

    package static func forStandardOutput(environment: [String: String] = ThisProcess.variables) -> Style {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Style(enabled: isatty(STDOUT_FILENO) == 1 && !noColor && environment["TERM"] != "dumb")
    }

    package static let plain = Style(enabled: false)

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    package func bold(_ text: String) -> String { wrap(text, "1") }
    package func dim(_ text: String) -> String { wrap(text, "2") }
    package func red(_ text: String) -> String { wrap(text, "31") }
    package func green(_ text: String) -> String { wrap(text, "32") }
    package func yellow(_ text: String) -> String { wrap(text, "33") }
    package func blue(_ text: String) -> String { wrap(text, "34") }
    package func magenta(_ text: String) -> String { wrap(text, "35") }
    package func cyan(_ text: String) -> String { wrap(text, "36") }
    package func underline(_ text: String) -> String { wrap(text, "4") }
    package func italic(_ text: String) -> String { wrap(text, "3") }
}
