import Foundation
import MaeilCore

/// One line of input, or why there is none.
public enum LineInput: Equatable, Sendable {
    case line(String)
    /// Ctrl-C: cancel the line (or leave a review).
    case interrupted
    /// Ctrl-D or the end of piped input.
    case end
}

/// Where the REPL reads from: libedit at a terminal, plain lines from a pipe or a test.
public protocol LineReader: AnyObject {
    func readLine(prompt: String) -> LineInput
}

/// Lines from standard input with no prompt and no editing, for scripts.
public final class PipedLineReader: LineReader {
    public init() {}

    public func readLine(prompt: String) -> LineInput {
        guard let line = Swift.readLine(strippingNewline: true) else { return .end }
        return .line(line.nfc)
    }
}

/// Lines from a list, for tests.
public final class ScriptedLineReader: LineReader {
    private var lines: [String]
    public private(set) var prompts: [String] = []

    public init(_ lines: [String]) { self.lines = lines }

    public func readLine(prompt: String) -> LineInput {
        prompts.append(prompt)
        guard !lines.isEmpty else { return .end }
        let line = lines.removeFirst()
        return line == "^C" ? .interrupted : .line(line)
    }
}
