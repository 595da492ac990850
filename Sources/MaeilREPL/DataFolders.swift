import Foundation
import MaeilPrograms

/// Where Maeil's own data lives: the bundled decks (Decks/) and the simulation scenarios (Sim/).
/// An installed binary finds them beside itself, in ../share/maeil (what `scripts/install`
/// lays out); a binary built in a checkout finds the checkout it was built from, even when it
/// is run from elsewhere. $MAEIL_DECKS and $MAEIL_SIM name other folders.
package enum DataFolders {
    package static func decks(environment: [String: String] = ThisProcess.variables) -> URL? {
        find("Decks", containing: "hangul-jamo/deck.yaml", override: environment["MAEIL_DECKS"])
    }

    package static func scenarios(environment: [String: String] = ThisProcess.variables) -> URL? {
        find("Sim", containing: nil, override: environment["MAEIL_SIM"])
    }

    /// The scenario names in Sim/, sorted.
    package static func scenarioNames() -> [String] {
        guard let folder = scenarios() else { return [] }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    static func find(_ name: String, containing file: String?, override: String?) -> URL? {
        if let override, !override.isEmpty { return URL(fileURLWithPath: override) }
        let executable = ThisProcess.executable.deletingLastPathComponent()
        var candidates = [executable.deletingLastPathComponent().appendingPathComponent("share/maeil/\(name)"), checkout.appendingPathComponent(name)]
        // A checkout moved after the build: walk up from the binary (.build/release/maeil).
        var folder = executable
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent(name))
            folder.deleteLastPathComponent()
        }
        return candidates.first { candidate in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), isFolder.boolValue else { return false }
            return file.map { FileManager.default.fileExists(atPath: candidate.appendingPathComponent($0).path) } ?? true
        }
    }

    /// The checkout this binary was built from: this file is Sources/MaeilREPL/DataFolders.swift.
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
