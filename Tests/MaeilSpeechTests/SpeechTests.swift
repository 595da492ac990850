import Foundation
import MaeilSpeech
import MaeilTestSupport
import Testing

@Suite("Speech: espeak-ng when installed, a stub that always works")
struct SpeechTests {
    @Test func theLanguageFollowsTheText() {
        #expect(SpeechLanguage.guess("김치") == "ko")
        #expect(SpeechLanguage.guess("ㄱ") == "ko")
        #expect(SpeechLanguage.guess("ねこ") == "ja")
        #expect(SpeechLanguage.guess("カタカナ") == "ja")
        #expect(SpeechLanguage.guess("猫") == "ja")
        #expect(SpeechLanguage.guess("water 물") == "ko")
        #expect(SpeechLanguage.guess("water") == "en")
        #expect(SpeechLanguage.isKnown("ko") && SpeechLanguage.isKnown("en-GB") && SpeechLanguage.isKnown("PT-br"))
        #expect(!SpeechLanguage.isKnown("xx") && !SpeechLanguage.isKnown(""))
    }

    /// A fake espeak-ng (and kakasi) on the search path records what it is asked to say.
    func fakeEngine() throws -> (folder: URL, log: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-speech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("said")
        let espeak = folder.appendingPathComponent("espeak-ng")
        try writeExecutableScript("#!/bin/sh\nprintf '%s|' \"$@\" >> '\(log.path)'\necho >> '\(log.path)'\n", to: espeak.path)
        // Like the real kakasi, it reads the whole of its input.
        try writeExecutableScript("#!/bin/sh\ncat > /dev/null\necho ねこ\n", to: folder.appendingPathComponent("kakasi").path)
        return (folder, log)
    }

    @Test func espeakGetsTheVoiceOfTheLanguageAndJapaneseKanjiAsKana() throws {
        let (folder, log) = try fakeEngine()
        let speaker = try #require(EspeakSpeaker(wait: true, searchPath: folder.path))
        #expect(speaker.say("김치", language: "ko"))
        #expect(speaker.say("猫", language: "ja"))
        #expect(speaker.say("hello", language: nil))
        #expect(speaker.say("你好", language: "zh-CN"))
        let said = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(said == ["-v|ko|--|김치|", "-v|ja|--|ねこ|", "-v|en|--|hello|", "-v|cmn|--|你好|"])
    }

    /// A card whose front reads like an option is said, never obeyed: to the real espeak-ng
    /// (scripts/setup installs it) "-wFILE" is an option that writes a file. (The fake engine
    /// above shows the "--" that makes it so.)
    @Test func textThatLooksLikeAnOptionIsOnlySaid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-speech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("written.wav")
        let speaker = try #require(EspeakSpeaker(wait: true), "espeak-ng is not installed: scripts/setup installs it")
        _ = speaker.say("-w\(target.path)", language: "en")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test func withoutAnEngineTheStubSaysWhatWouldBeSaidAfterOneNotice() {
        #expect(EspeakSpeaker(searchPath: "/nonexistent") == nil)
        var printed: [String] = [], notices: [String] = []
        let speaker = FallbackSpeaker(primary: nil, fallback: StubSpeaker { printed.append($0) }) { notices.append($0) }
        #expect(speaker.say("안녕", language: "ko"))
        #expect(speaker.say("ねこ", language: "ja"))
        #expect(printed == ["🔊 ko: 안녕", "🔊 ja: ねこ"])
        #expect(notices.count == 1 && notices[0].contains("espeak-ng is not installed"))
        #expect(speaker.name == "stub")
    }

    /// An engine that fails hands over to the stub for the rest of the session.
    @Test func aFailingEngineFallsBackOnce() throws {
        final class Broken: Speaker {
            var calls = 0
            let name = "broken"
            func say(_ text: String, language: String?) -> Bool { calls += 1; return false }
        }
        let broken = Broken()
        var printed: [String] = [], notices: [String] = []
        let speaker = FallbackSpeaker(primary: broken, fallback: StubSpeaker { printed.append($0) }) { notices.append($0) }
        #expect(speaker.say("one", language: "en"))
        #expect(speaker.say("two", language: "en"))
        #expect(broken.calls == 1)
        #expect(printed == ["🔊 en: one", "🔊 en: two"])
        #expect(notices == ["speech: broken failed; showing what would be said instead"])
    }

    @Test func withoutAPlayerMediaAreNamed() {
        var said: [String] = []
        let player = MediaPlayer(searchPath: "/nonexistent", stub: false) { said.append($0) }
        #expect(player.play(URL(fileURLWithPath: "/tmp/hello.mp3")) == nil)
        #expect(!player.open(URL(fileURLWithPath: "/tmp/dot.png")))
        #expect(said == ["♪ hello.mp3", "▣ /tmp/dot.png"])
    }
}
