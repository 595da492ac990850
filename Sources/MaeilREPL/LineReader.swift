import Foundation
import MaeilCore

/// One line of input, or why there is none.
package enum LineInput: Equatable, Sendable {
    case line(String)
    /// Ctrl-C: clear the line (at an answer: a second one leaves the review).
    case interrupted
    /// Ctrl-D or the end of piped input.
    case end
}

/// What to ask for one line.
package struct LineRequest: Sendable {
    package var prompt: String
    /// Keep the line in the prompt's history. Only commands typed at the prompt are kept, never
    /// answers, edits or yes/no replies.
    package var remember: Bool
    /// Text the line starts with, for editing it in place (a field's current value). A line
    /// holds what can be typed on it: control characters (a newline, a tab) show as spaces.
    package var initialText: String

    package init(prompt: String, remember: Bool = false, initialText: String = "") {
        self.prompt = prompt
        self.remember = remember
        self.initialText = initialText
    }
}

extension LineRequest {
    /// `text` as a line shows it: every control character a space, since typed it would be a
    /// key (⏎ ends the line, Tab completes).
    package static func typeable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? " " : $0 }))
    }
}

/// Where the prompt reads from: libedit at a terminal, plain lines from a pipe or a test.
package protocol LineReader: AnyObject {
    func readLine(_ request: LineRequest) -> LineInput
    /// One key of a review, which acts at once at a terminal: its character, "" for ⏎ and
    /// Space. From a pipe or a test, a line stands for a key.
    func readKey(prompt: String) -> LineInput
}

extension LineReader {
    package func readLine(prompt: String) -> LineInput { readLine(LineRequest(prompt: prompt)) }

    package func readKey(prompt: String) -> LineInput { readLine(prompt: prompt) }
}

/// Lines from standard input with no prompt and no editing, for scripts.
package final class PipedLineReader: LineReader {
    package init() {}

    package func readLine(_ request: LineRequest) -> LineInput {
        guard let line = Swift.readLine(strippingNewline: true) else { return .end }
        return .line(line.nfc)
    }
}

/// Lines from a list, for tests: "^C" stands for Ctrl-C.
package final class ScriptedLineReader: LineReader {
    private var lines: [String]
    package private(set) var prompts: [String] = []
    package private(set) var requests: [LineRequest] = []

    package init(_ lines: [String]) { self.lines = lines }

    package func readLine(_ request: LineRequest) -> LineInput {
        prompts.append(request.prompt)
        requests.append(request)
        guard !lines.isEmpty else { return .end }
        let line = lines.removeFirst()
        return line == "^C" ? .interrupted : .line(line)
    }
}
