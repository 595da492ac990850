import Foundation
import MaeilPrograms
import MaeilCore
import MaeilFocus
import MaeilStore

/// The learner's settings, in `$XDG_CONFIG_HOME/maeil/config` as `key = value` lines.
package struct UserConfig: Sendable {
    package enum Speech: String, Sendable, CaseIterable {
        /// Fronts are spoken for decks that name a field to speak.
        case auto
        case on
        case off
    }

    package static let keys: [String: String] = [
        "speech": "auto, on or off — read card fronts aloud (auto: for decks that ask for it)",
        "focus.export": "files the focus list is kept in, e.g. json:~/.local/state/maeil/focus.json waybar:/tmp/maeil-waybar.json",
        "focus.limit": "how many items the focus list holds (default 10)",
    ]

    package let path: String
    package private(set) var values: [String: String]

    package init(path: String) {
        self.path = path
        values = [:]
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
    }

    package static func standard(environment: [String: String] = ThisProcess.variables) -> UserConfig {
        UserConfig(path: (XDG.configHome(environment) as NSString).appendingPathComponent("maeil/config"))
    }

    package var speech: Speech { values["speech"].flatMap(Speech.init(rawValue:)) ?? .auto }

    package subscript(key: String) -> String? { values[key] }

    /// "speech = auto  read card fronts aloud…", as `config` shows a setting.
    package func line(for key: String, style: Style) -> String {
        "\(key) = \(values[key] ?? style.dim("(default)"))  " + style.dim(Self.keys[key] ?? "")
    }

    /// Sets a value and writes the file (atomically). Unknown keys and bad values are refused.
    package mutating func set(_ key: String, _ value: String?) throws {
        guard Self.keys[key] != nil else {
            throw ConfigError("no setting '\(key)'; the settings are: \(Self.keys.keys.sorted().joined(separator: ", "))")
        }
        if key == "speech", let value, Speech(rawValue: value) == nil { throw ConfigError("speech takes auto, on or off") }
        if key == "focus.limit", let value, (Int(value) ?? 0) < 1 { throw ConfigError("focus.limit takes a whole number of 1 or more") }
        if key == "focus.export", let value {
            // Every word must be FORMAT:PATH with a format a widget reads, or nothing would be written.
            for word in value.split(whereSeparator: { $0 == " " || $0 == "," }) {
                let format = word.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
                guard word.contains(":"), FocusFormat(rawValue: format) != nil else {
                    throw ConfigError("focus.export takes FORMAT:PATH words, FORMAT one of \(FocusFormat.allCases.map(\.rawValue).joined(separator: ", ")); "
                                      + "not '\(TerminalText.visible(String(word)))'")
                }
            }
        }
        values[key] = value
        let text = "# Maeil settings: `maeil config KEY VALUE` changes them.\n"
            + values.keys.sorted().map { "\($0) = \(values[$0]!)" }.joined(separator: "\n") + "\n"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

package struct ConfigError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

/// A command at the prompt given something it cannot work with.
package struct PromptError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
