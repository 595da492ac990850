import Foundation

/// Where the focus list goes, from `config focus.export` ("json:PATH waybar:PATH …").
package struct FocusTarget: Sendable, Equatable {
    package var format: FocusFormat
    package var path: String

    package init(format: FocusFormat, path: String) {
        self.format = format
        self.path = path
    }

    package static func parse(_ setting: String?, defaultPath: String, home: String) -> [FocusTarget] {
        guard let setting, !setting.trimmingCharacters(in: .whitespaces).isEmpty else {
            return [FocusTarget(format: .json, path: defaultPath)]
        }
        return setting.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { entry in
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let format = FocusFormat(rawValue: parts[0]) else { return nil }
            let path = parts[1].hasPrefix("~/") ? home + parts[1].dropFirst() : parts[1]
            return FocusTarget(format: format, path: path)
        }
    }
}
