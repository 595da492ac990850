import Foundation
import MaeilCore

/// One line of input, or why there is none.
public enum LineInput: Equatable, Sendable {
    case line(String)
    /// Ctrl-C: clear the line (at an answer: a second one leaves the review).
    case interrupted
    /// Ctrl-D or the end of piped input.
    case end
}

/// What to ask for one line.
public struct LineRequest: Sendable {
    public var prompt: String
    /// Keep the line in the prompt's history. Only commands typed at the prompt are kept, never
    /// answers, edits or yes/no replies.
    public var remember: Bool
    /// Text the line starts with, for editing it in place (a field's current value).
    public var initialText: String

    public init(prompt: String, remember: Bool = false, initialText: String = "") {
        self.prompt = prompt
        self.remember = remember
        self.initialText = initialText
    }
}

/// Where the prompt reads from: libedit at a terminal, plain lines from a pipe or a test.
public protocol LineReader: AnyObject {
    func readLine(_ request: LineRequest) -> LineInput
}

extension LineReader {
    public func readLine(prompt: String) -> LineInput { readLine(LineRequest(prompt: prompt)) }
}

/// Lines from standard input with no prompt and no editing, for scripts.
public final class PipedLineReader: LineReader {
    public init() {}

    public func readLine(_ request: LineRequest) -> LineInput {
        guard let line = Swift.readLine(strippingNewline: true) else { return .end }
        return .line(line.nfc)
    }
}

/// Lines from a list, for tests: "^C" stands for Ctrl-C.
public final class ScriptedLineReader: LineReader {
    private var lines: [String]
    public private(set) var prompts: [String] = []
    public private(set) var requests: [LineRequest] = []

    public init(_ lines: [String]) { self.lines = lines }

    public func readLine(_ request: LineRequest) -> LineInput {
        prompts.append(request.prompt)
        requests.append(request)
        guard !lines.isEmpty else { return .end }
        let line = lines.removeFirst()
        return line == "^C" ? .interrupted : .line(line)
    }
}
