import Foundation
import MaeilPrograms

/// Something that says a text aloud.
package protocol Speaker: AnyObject {
    /// Says `text` in `language` ("ko", "ja", "en"…). Never throws: a speaker that cannot speak
    /// reports it through `lastFailure` and the fallback takes over.
    func say(_ text: String, language: String?) -> Bool
    var name: String { get }
}

/// Always works: it prints what it would say ("🔊 ko: 한글") and keeps a record for tests.
package final class StubSpeaker: Speaker {
    package private(set) var spoken: [(text: String, language: String?)] = []
    private let output: (String) -> Void
    package let name = "stub"

    package init(output: @escaping (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }) {
        self.output = output
    }

    package func say(_ text: String, language: String?) -> Bool {
        spoken.append((text, language))
        output("🔊 \(language ?? "?"): \(text)")
        return true
    }
}

/// espeak-ng, when installed: the voice follows the field's language. Japanese is spoken from
/// its kana reading (espeak-ng spells kanji out as "Chinese letter"); free text with kanji goes
/// through kakasi first when it is installed.
package final class EspeakSpeaker: Speaker {
    package let name = "espeak-ng"
    let executable: String
    let kakasi: String?
    /// Play in the background, so the prompt comes back at once.
    let wait: Bool
    /// A file espeak-ng writes what it says to instead of playing it (a test that listens).
    let wavOutput: String?

    package init?(wait: Bool = false, wavOutput: String? = nil, searchPath: String = ExternalProgram.searchPath) {
        guard let found = ExternalProgram.find("espeak-ng", in: searchPath) else { return nil }
        executable = found
        kakasi = ExternalProgram.find("kakasi", in: searchPath)
        self.wait = wait
        self.wavOutput = wavOutput
    }

    package func say(_ text: String, language: String?) -> Bool {
        var spoken = text
        if language == "ja", let kakasi, spoken.unicodeScalars.contains(where: { (0x4E00...0x9FFF).contains($0.value) }) {
            spoken = (try? ExternalProgram.run(kakasi, ["-JH", "-i", "utf8", "-o", "utf8"], input: spoken))?
                .output.trimmingCharacters(in: .whitespacesAndNewlines) ?? spoken
        }
        var arguments = ["-v", Self.voice(for: language)]
        if let wavOutput { arguments += ["-w", wavOutput] }
        // Card text is untrusted: after "--" a front like "-w/FILE" is words to say, not an option.
        arguments += ["--", spoken]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Never the terminal: what the learner types next is Maeil's.
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        if wait || wavOutput != nil {
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
        return true
    }

    static func voice(for language: String?) -> String {
        switch language?.lowercased().prefix(2) {
        case "ko": "ko"
        case "ja": "ja"
        case "zh": "cmn"
        case .some(let code) where !code.isEmpty: String(code)
        default: "en"
        }
    }

}

/// Tries the real engine and falls back to the stub, with one notice the first time, so a
/// missing or broken engine never interrupts a review.
package final class FallbackSpeaker: Speaker {
    let primary: Speaker?
    let fallback: StubSpeaker
    let notice: (String) -> Void
    private var failed = false
    package var name: String { failed || primary == nil ? fallback.name : primary!.name }

    package init(primary: Speaker?, fallback: StubSpeaker, notice: @escaping (String) -> Void) {
        self.primary = primary
        self.fallback = fallback
        self.notice = notice
    }

    package func say(_ text: String, language: String?) -> Bool {
        if let primary, !failed {
            if primary.say(text, language: language) { return true }
            failed = true
            notice("speech: \(primary.name) failed; showing what would be said instead")
        } else if primary == nil, !failed {
            failed = true
            notice("speech: espeak-ng is not installed (sudo apt-get install espeak-ng); showing what would be said instead")
        }
        return fallback.say(text, language: language)
    }
}

/// The languages speech knows, by their ISO 639 code: espeak-ng's voices, plus zh (spoken
/// with its Mandarin voice).
package enum SpeechLanguage {
    static let codes: Set<String> = Set("""
        af am an ar as az ba be bg bn bpy bs ca chr cmn cs cv cy da de el en eo es et eu fa fi fr ga gd gn grc gu hak haw he hi hr ht \
        hu hy hyw ia id io is it ja jbo ka kk kl kn ko kok ku ky la lb lfn lt ltg lv mi mk ml mr ms mt my nb nci ne nl nog om or pa \
        pap piqd pl pt py qdb qu quc qya ro ru sd shn si sjn sk sl smj sq sr sv sw ta te th tk tn tr tt ug uk ur uz vi yue zh
        """.split(separator: " ").map(String.init))

    /// Whether `code` ("ko", "en-GB", "pt-br") names a language speech can use.
    package static func isKnown(_ code: String) -> Bool {
        guard let primary = code.lowercased().split(separator: "-").first else { return false }
        return codes.contains(String(primary))
    }

    /// Hangul is Korean; kana or kanji Japanese; anything else English.
    package static func guess(_ text: String) -> String {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7A3: return "ko"
            case 0x3040...0x30FF, 0x4E00...0x9FFF: return "ja"
            default: continue
            }
        }
        return "en"
    }
}

/// Plays a card's sounds ([sound:…] from Anki) and opens its pictures, with what the system
/// has: the first of pw-play, paplay, aplay, mpv and ffplay that can play the file (paplay and
/// aplay take no MP3), and xdg-open for pictures. Without one, it says what it would do.
package final class MediaPlayer {
    let searchPath: String
    let stub: Bool
    let say: (String) -> Void

    package init(searchPath: String = ExternalProgram.searchPath, stub: Bool, say: @escaping (String) -> Void) {
        self.searchPath = searchPath
        self.stub = stub
        self.say = say
    }

    static let players: [(program: String, arguments: [String], compressed: Bool)] = [
        ("pw-play", [], true), ("paplay", [], false), ("aplay", ["-q"], false),
        ("mpv", ["--no-video", "--really-quiet"], true), ("ffplay", ["-nodisp", "-autoexit", "-loglevel", "quiet"], true),
    ]

    /// Plays `file`; returns the player used, or nil when none could (the stub said so).
    @discardableResult
    package func play(_ file: URL) -> String? {
        let compressed = !["wav", "flac", "ogg", "oga"].contains(file.pathExtension.lowercased())
        guard !stub, FileManager.default.fileExists(atPath: file.path),
              let player = Self.players.first(where: { (!compressed || $0.compressed) && ExternalProgram.find($0.program, in: searchPath) != nil }),
              let path = ExternalProgram.find(player.program, in: searchPath) else {
            say("♪ \(file.lastPathComponent)")
            return nil
        }
        run(path, player.arguments + [file.path])
        return player.program
    }

    /// Opens a picture with the desktop's viewer.
    @discardableResult
    package func open(_ file: URL) -> Bool {
        guard !stub, FileManager.default.fileExists(atPath: file.path), let opener = ExternalProgram.find("xdg-open", in: searchPath) else {
            say("▣ \(file.path)")
            return false
        }
        run(opener, [file.path])
        return true
    }

    private func run(_ program: String, _ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }
}
