import Foundation
import MaeilTestSupport

/// scripts/anki/seeded.py and the real `maeil` side by side, each at a given moment under
/// libfaketime: the helpers the tests that hold Maeil's commands against Anki's share.
struct SeededAnki {
    let folder: URL

    /// Runs seeded.py in `zone`; returns the JSON object it prints.
    func python(_ arguments: [String], zone: String) throws -> [String: Any] {
        let result = try Binary.runProgram(AnkiPython.path!, [AnkiPython.repository.appendingPathComponent("scripts/anki/seeded.py").path] + arguments,
                                           environment: ["TZ": zone])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw OneCollectionTests.Failure("seeded.py \(arguments.first ?? ""): \(result.stderr.suffix(1500))")
        }
        return object
    }

    /// Runs maeil on `collection` in `zone` with the clock at Unix time `at`; returns its output.
    func maeil(_ arguments: [String], _ collection: String, _ zone: String, at: Int) throws -> String {
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd HH:mm:ss"
        format.timeZone = TimeZone(identifier: "UTC")
        let result = try Binary.run([arguments[0], "--collection", collection] + arguments.dropFirst(), environment: [
            "TZ": zone, "HOME": folder.path, "XDG_DATA_HOME": folder.path, "MAEIL_SPEECH": "stub",
            "LD_PRELOAD": AnkiPython.faketime, "FAKETIME": "@" + format.string(from: Date(timeIntervalSince1970: TimeInterval(at))),
        ])
        if result.status != 0 { throw OneCollectionTests.Failure("maeil \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }
}
