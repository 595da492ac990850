import Foundation

/// One key at a terminal, without ⏎: the terminal out of line mode and echo for just that
/// read (Ctrl-C still interrupts), restored before anything else is printed.
enum KeyPress {
    /// The key as a review takes it: "" for ⏎ and Space, its character otherwise; arrow keys
    /// and other control keys are passed over. `.end` for Ctrl-D or a closed terminal.
    static func read(prompt: String) -> LineInput {
        FileHandle.standardOutput.write(Data(prompt.utf8))
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return .end }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        setControlCharacters(&raw, minimum: 1, tenthsOfSecond: 0)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        while true {
            let scalar = TerminalInput.readScalar()
            switch scalar {
            case ..<0:
                FileHandle.standardOutput.write(Data("\n".utf8))
                guard SignalHandling.interrupted else { return .end }
                SignalHandling.takeInterrupt()
                return .interrupted
            case 0x04:
                FileHandle.standardOutput.write(Data("\n".utf8))
                return .end
            case 0x0A, 0x0D, 0x20:
                FileHandle.standardOutput.write(Data("\n".utf8))
                return .line("")
            case 0x1B:
                drainEscapeSequence(raw)
            case 0..<0x20, 0x7F:
                continue
            default:
                guard let key = Unicode.Scalar(UInt32(scalar)) else { continue }
                // The key stays on screen after its prompt, so the scroll-back reads as typed.
                FileHandle.standardOutput.write(Data((String(key) + "\n").utf8))
                return .line(String(key).nfc)
            }
        }
    }

    /// An arrow or function key sends ESC and a few bytes at once: read what follows within a
    /// tenth of a second and drop it.
    private static func drainEscapeSequence(_ mode: termios) {
        var quick = mode
        setControlCharacters(&quick, minimum: 0, tenthsOfSecond: 1)
        tcsetattr(STDIN_FILENO, TCSANOW, &quick)
        defer { var restored = mode; tcsetattr(STDIN_FILENO, TCSANOW, &restored) }
        var byte: UInt8 = 0
        for _ in 0..<8 where Glibc.read(STDIN_FILENO, &byte, 1) == 1 {}
    }

    private static func setControlCharacters(_ mode: inout termios, minimum: cc_t, tenthsOfSecond: cc_t) {
        withUnsafeMutableBytes(of: &mode.c_cc) { bytes in
            bytes[Int(VMIN)] = minimum
            bytes[Int(VTIME)] = tenthsOfSecond
        }
    }
}
