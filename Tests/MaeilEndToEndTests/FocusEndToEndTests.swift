import Foundation
import MaeilStore
import Testing
import MaeilTestSupport

@Suite("Focus list, end to end", .serialized)
struct FocusEndToEndTests {
    /// Exports from separate `maeil` processes while this one polls the file as a widget would.
    @Test func aWidgetPollingDuringExportsNeverSeesAPartialFile() throws {
        let path = try PromptTests.koreanCollection(count: 5)
        _ = try Binary.run(["star", "--collection", path, "1"])
        let out = Fixture.temporaryDirectory().appendingPathComponent("waybar.json").path
        #expect(try Binary.run(["focus", "export", "--collection", path, "--format", "waybar", "--out", out]).status == 0)
        let stop = StopFlag()
        nonisolated(unsafe) var reads = 0, bad = 0
        let finished = DispatchSemaphore(value: 0)
        let reader = Thread {
            defer { finished.signal() }
            while !stop.isSet {
                guard let data = FileManager.default.contents(atPath: out) else { bad += 1; continue }
                reads += 1
                if (try? JSONSerialization.jsonObject(with: data)) == nil { bad += 1 }
            }
        }
        reader.start()
        for _ in 0..<25 {
            let result = try Binary.run(["focus", "export", "--collection", path, "--format", "waybar", "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
        }
        stop.set()
        finished.wait()
        #expect(bad == 0)
        #expect(reads > 50)
        let waybar = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as! [String: Any]
        #expect((waybar["tooltip"] as? String)?.contains("김치") == true)
    }

    @Test func reviewFocusGoesOverTheFocusList() throws {
        let path = try PromptTests.koreanCollection(count: 5)
        _ = try Binary.run(["star", "--collection", path, "3"])
        let result = try Binary.run(["--collection", path], input: "review --focus\n\n3\nquit\n", environment: ["MAEIL_SPEECH": "stub"])
        #expect(result.stdout.contains("practice"))
        #expect(result.stdout.contains("rice"))
        // Practice leaves the schedule alone.
        let collection = try Collection(path: path)
        #expect(try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0") } == 0)
    }

    @Test func theDefaultExportIsJSONInTheStateFolder() throws {
        let path = try PromptTests.koreanCollection(count: 2)
        let state = Fixture.temporaryDirectory()
        let result = try Binary.run(["focus", "export", "--collection", path], environment: ["XDG_STATE_HOME": state.path])
        #expect(result.status == 0)
        let written = try Data(contentsOf: state.appendingPathComponent("maeil/focus.json"))
        let json = try JSONSerialization.jsonObject(with: written) as! [String: Any]
        #expect(json["schema"] as? Int == 2)
    }

    /// Without --out, an export writes every file `config focus.export` names, each in its format.
    @Test func anExportWritesTheConfiguredFiles() throws {
        let path = try PromptTests.koreanCollection(count: 2)
        let folder = Fixture.temporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "HOME": folder.path]
        let waybar = folder.appendingPathComponent("bar/maeil.json").path
        let set = try Binary.run(["config", "focus.export", "waybar:\(waybar) text:~/focus.txt"], environment: environment)
        #expect(set.status == 0)
        let result = try Binary.run(["focus", "export", "--collection", path, "--limit", "3"], environment: environment)
        #expect(result.status == 0)
        let bar = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: waybar))) as! [String: Any]
        #expect((bar["text"] as? String)?.hasPrefix("매일 ") == true)
        let text = try String(contentsOf: folder.appendingPathComponent("focus.txt"), encoding: .utf8)
        #expect(text.hasPrefix("매일 "))
        // --format alone would have nowhere to go.
        let bad = try Binary.run(["focus", "export", "--collection", path, "--format", "waybar"], environment: environment)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--format needs --out"))
    }
}

final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    var isSet: Bool { lock.withLock { stopped } }
    func set() { lock.withLock { stopped = true } }
}
