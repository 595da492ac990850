import Foundation
import MaeilCore

/// Where the REPL writes. Standard output flushes every write, so a script reading the other
/// end of a pipe sees each acknowledgement as soon as the answer is committed.
package protocol Console: AnyObject {
    var style: Style { get }
    /// True at an interactive terminal: prompts, colour and line editing.
    var isInteractive: Bool { get }
    func write(_ text: String)
    /// Writes text as it is, never fitted to the terminal: JSON and other text a program reads.
    func writeVerbatim(_ text: String)
}

extension Console {
    package func writeVerbatim(_ text: String) { write(text) }
    package func line(_ text: String = "") { write(text + "\n") }
    package func error(_ text: String) { line(style.red("maeil: ") + text) }
}

package final class StandardConsole: Console {
    package let style: Style
    package let isInteractive: Bool

    package init(style: Style = .forStandardOutput(), isInteractive: Bool = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1) {
        self.style = style
        self.isInteractive = isInteractive
    }

    /// At a terminal, lines are fitted to its width at word boundaries, a cell short of the
    /// edge: a line that filled the row would leave some terminals waiting to wrap.
    package func write(_ text: String) {
        let clean = Self.clean(text, colour: style.enabled)
        let fitted = isInteractive ? TextWrap.terminalWidth().map { TextWrap.wrap(clean, width: $0 - 1) } ?? clean : clean
        FileHandle.standardOutput.write(Data(fitted.utf8))
    }

    package func writeVerbatim(_ text: String) {
        FileHandle.standardOutput.write(Data(Self.clean(text, colour: style.enabled).utf8))
    }

    /// The output boundary: whatever reached a line (a field name, a file's words in an error),
    /// no control sequence leaves but the colour codes Maeil writes itself.
    static func clean(_ text: String, colour: Bool) -> String {
        colour ? TerminalText.sanitizeKeepingColour(text) : TerminalText.sanitize(text)
    }
}

/// A console that keeps what is written, for tests.
package final class RecordingConsole: Console {
    package let style: Style
    package let isInteractive: Bool
    package private(set) var output = ""

    package init(style: Style = .plain, isInteractive: Bool = false) {
        self.style = style
        self.isInteractive = isInteractive
    }

    package func write(_ text: String) { output += text }
}
