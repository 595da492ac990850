@preconcurrency import CEdit
import Foundation
import MaeilCore

/// Line editing at a terminal through libedit's readline-compatible API: history kept across
/// runs, tab completion, Korean and Japanese input, Ctrl-C to cancel a line, Ctrl-D to quit.
public final class EditLineReader: LineReader {
    let historyPath: String

    public init(historyPath: String, completer: Completer) {
        self.historyPath = historyPath
        // Without a UTF-8 locale libedit silently drops Korean and Japanese input.
        if let current = setlocale(LC_CTYPE, ""), ["C", "POSIX"].contains(String(cString: current)) {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        CompletionState.completer = completer
        rl_readline_name = UnsafePointer(strdup("maeil"))
        rl_attempted_completion_function = { text, start, _ in
            // Only our words: never fall back to file names.
            rl_attempted_completion_over = 1
            CompletionState.prepare(line: rl_line_buffer.map { String(cString: $0) } ?? "", start: Int(start))
            return rl_completion_matches(text) { _, state in CompletionState.next(state) }
        }
        try? FileManager.default.createDirectory(atPath: (historyPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = read_history(historyPath)
        SignalHandling.installInterruptHandler()
    }

    public func readLine(prompt: String) -> LineInput {
        SignalHandling.interrupted = false
        guard let raw = readline(prompt) else {
            if SignalHandling.interrupted {
                FileHandle.standardOutput.write(Data("\n".utf8))
                return .interrupted
            }
            FileHandle.standardOutput.write(Data("\n".utf8))
            return .end
        }
        defer { free(raw) }
        if SignalHandling.interrupted { return .interrupted }
        let line = String(cString: raw)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            add_history(line)
            // Written at once, so a killed terminal keeps what was typed.
            _ = write_history(historyPath)
            _ = history_truncate_file(historyPath, 2000)
        }
        return .line(line.nfc)
    }
}

/// Completion callbacks are C functions and cannot capture anything; their state lives here.
enum CompletionState {
    nonisolated(unsafe) static var completer: Completer?
    nonisolated(unsafe) static var candidates: [String] = []

    static func prepare(line: String, start: Int) {
        let prefix = String(line.utf8.prefix(start)).map { String($0) } ?? line
        let current = String(line.utf8.dropFirst(start)).map { String($0) } ?? ""
        candidates = completer?.candidates(before: prefix, word: current.split(separator: " ").first.map(String.init) ?? "") ?? []
    }

    /// libedit frees what it is given: every candidate is strdup'ed.
    static func next(_ state: Int32) -> UnsafeMutablePointer<CChar>? {
        let index = Int(state)
        guard index < candidates.count else { return nil }
        return strdup(candidates[index])
    }
}

/// Ctrl-C must interrupt the read, not restart it: a handler installed without SA_RESTART
/// makes libedit's read return, and the flag tells that apart from Ctrl-D.
enum SignalHandling {
    nonisolated(unsafe) static var interrupted = false

    static func installInterruptHandler() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in SignalHandling.interrupted = true }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }
}
