@preconcurrency import CEdit
import Foundation
import MaeilCore
import Synchronization

/// Line editing at a terminal through libedit's readline-compatible API: history kept across
/// runs, tab completion, Korean and Japanese input, Ctrl-C to cancel a line, Ctrl-D to quit.
package final class EditLineReader: LineReader {
    /// Where commands typed at the prompt are kept; nil keeps none (a review started from a shell).
    let historyPath: String?

    package init(historyPath: String?, completer: Completer?) {
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
        // libedit retries a read a signal interrupted once before giving up, which would make
        // Ctrl-C work only the second time. Reading the bytes ourselves, an interrupted read
        // ends the line at once; the flag tells that apart from Ctrl-D.
        // libedit takes what this returns as a whole (wide) character, so UTF-8 is decoded here.
        // A line's initial text goes in the same way, as if typed: Debian's libedit clears the
        // line after its startup hook, so text the hook inserts never shows.
        rl_getc_function = { _ in EditingState.nextPrefilled() ?? TerminalInput.readScalar() }
        // libedit's own handlers re-raise Ctrl-C to the whole process group once they have run;
        // the kernel gives that second signal to whichever thread does not block it, so the flag
        // could be set after this line was already over and end the next one at its first key.
        // Our handlers alone see each signal once; set before anything initialises libedit.
        rl_catch_signals = 0
        rl_catch_sigwinch = 0
        if let historyPath {
            try? FileManager.default.createDirectory(atPath: (historyPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = read_history(historyPath)
        }
        SignalHandling.installInterruptHandler()
    }

    /// libedit counts every byte of a prompt as a column unless told: colour codes are marked
    /// as invisible between \1 and \2, or the screen shows their remnants and lines wrap early.
    static func markInvisible(_ prompt: String) -> String {
        var result = ""
        var scalars = prompt.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            result += "\u{01}\u{1B}"
            while let next = scalars.next() {
                result.unicodeScalars.append(next)
                if (0x40...0x7E).contains(next.value), next != "[" { break }
            }
            result += "\u{02}"
        }
        return result
    }

    package func readKey(prompt: String) -> LineInput {
        KeyPress.read(prompt: TerminalText.sanitizeKeepingColour(prompt))
    }

    /// A Ctrl-C pressed while no line was being read (during an answer, say) still counts:
    /// the flag is cleared only when the interruption is reported.
    package func readLine(_ request: LineRequest) -> LineInput {
        EditingState.prefill(request.initialText)
        defer { EditingState.prefill("") }
        guard let raw = readline(Self.markInvisible(TerminalText.sanitizeKeepingColour(request.prompt))) else {
            FileHandle.standardOutput.write(Data("\n".utf8))
            if SignalHandling.interrupted {
                SignalHandling.takeInterrupt()
                return .interrupted
            }
            return .end
        }
        defer { free(raw) }
        if SignalHandling.interrupted {
            SignalHandling.takeInterrupt()
            return .interrupted
        }
        let line = String(cString: raw)
        if request.remember, let historyPath, !line.trimmingCharacters(in: .whitespaces).isEmpty {
            add_history(line)
            // Written at once, so a killed terminal keeps what was typed.
            _ = write_history(historyPath)
            _ = history_truncate_file(historyPath, 2000)
        }
        return .line(line.nfc)
    }
}

/// The text a line starts with, handed to libedit as typed characters before the terminal's
/// (the getc callback is a C function that cannot capture anything).
enum EditingState {
    nonisolated(unsafe) static var pending: [Int32] = []
    nonisolated(unsafe) static var next = 0

    /// `text` as it will be typed: `LineRequest.typeable`, so no character of it is a key.
    static func prefill(_ text: String) {
        pending = LineRequest.typeable(text).unicodeScalars.map { Int32(bitPattern: $0.value) }
        next = 0
    }

    static func nextPrefilled() -> Int32? {
        guard next < pending.count else { return nil }
        defer { next += 1 }
        return pending[next]
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
/// makes libedit's read return, and the flag tells that apart from Ctrl-D. A resized terminal
/// interrupts it too, and the line is laid out again for the new width.
enum SignalHandling {
    /// Ctrl-Cs not yet reported, counted: two pressed before the first is reported (a quick
    /// double Ctrl-C to leave a review) are two, where a flag made them one.
    static let interrupts = Atomic<Int>(0)
    nonisolated(unsafe) static var resized = false

    static var interrupted: Bool { interrupts.load(ordering: .relaxed) > 0 }

    /// One Ctrl-C has been reported.
    static func takeInterrupt() {
        var current = interrupts.load(ordering: .relaxed)
        while current > 0 {
            let (exchanged, original) = interrupts.compareExchange(expected: current, desired: current - 1, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    static func installInterruptHandler() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in SignalHandling.interrupts.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        var resize = sigaction()
        resize.__sigaction_handler.sa_handler = { _ in SignalHandling.resized = true }
        sigemptyset(&resize.sa_mask)
        resize.sa_flags = 0
        sigaction(SIGWINCH, &resize, nil)
        // A parent may have left SIGINT blocked (the mask survives exec); then Ctrl-C would do nothing.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }
}

/// Reads one character from the terminal for libedit: a whole UTF-8 sequence as its code
/// point, or -1 at the end of input or when Ctrl-C interrupted the read.
enum TerminalInput {
    static func readByte() -> Int32 {
        var byte: UInt8 = 0
        while true {
            if SignalHandling.interrupted { return -1 }
            if SignalHandling.resized {
                SignalHandling.resized = false
                rl_resize_terminal()
            }
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 { return Int32(byte) }
            if count < 0, errno == EINTR, !SignalHandling.interrupted { continue }
            return -1
        }
    }

    static func readScalar() -> Int32 {
        let lead = readByte()
        guard lead >= 0x80 else { return lead }
        let length: Int
        var value: Int32
        switch lead {
        case 0xC0...0xDF: (length, value) = (1, lead & 0x1F)
        case 0xE0...0xEF: (length, value) = (2, lead & 0x0F)
        case 0xF0...0xF7: (length, value) = (3, lead & 0x07)
        default: return 0xFFFD
        }
        for _ in 0..<length {
            let next = readByte()
            guard next >= 0 else { return -1 }
            guard next & 0xC0 == 0x80 else { return 0xFFFD }
            value = value << 6 | (next & 0x3F)
        }
        return value
    }
}
