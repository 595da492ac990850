import Foundation

/// What `maeil` makes of its words before the parser sees them.
package enum CommandWords {
    /// `maeil --collection PATH stats` as `maeil stats --collection PATH`: the collection may
    /// come before the command too, or between a command and its own (`read --collection PATH
    /// done`). It goes after the whole command path, where every command's options are parsed.
    package static func normalized(_ words: [String], commands tree: CommandTree) -> [String] {
        var path: [String] = [], collection: [String] = []
        var commands = tree.subcommands
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "--collection", index + 1 < words.count {
                collection += words[index...(index + 1)]
                index += 2
            } else if word.hasPrefix("--collection=") {
                collection.append(word)
                index += 1
            } else if path.isEmpty, word == "help" {
                path.append(word)
                index += 1
                break
            } else if let command = commands.first(where: { $0.name == word }) {
                path.append(word)
                commands = command.subcommands
                index += 1
            } else {
                break
            }
        }
        guard !path.isEmpty, !collection.isEmpty else { return words }
        // Help opens no collection: the option has nothing to say to it.
        if path == ["help"] { return path + words[index...] }
        return path + collection + words[index...]
    }

    /// "no command 'stat'; the nearest is 'stats'" when the first word names no command.
    package static func unknownCommand(_ words: [String], commands tree: CommandTree) -> String? {
        guard let first = words.first, !first.hasPrefix("-") else { return nil }
        let names = tree.subcommands.map(\.name) + ["help"]
        guard !names.contains(first) else { return nil }
        // The closest name, a name that begins with the word winning a tie ("stat" is "stats").
        let word = first.lowercased()
        func rank(_ name: String) -> (Int, Int) { (distance(word, name), name.hasPrefix(word) ? 0 : 1) }
        // Only a near miss is offered: "clear" is five edits from anything, not a typo of "star".
        let nearest = (tree.subcommands.filter(\.visible).map(\.name) + ["help"]).min { rank($0) < rank($1) }
            .flatMap { distance(word, $0) <= max(1, word.count / 3) || $0.hasPrefix(word) ? $0 : nil }
        return "no command '\(first)'" + (nearest.map { "; the nearest is '\($0)'" } ?? "")
    }

    /// Edit distance: insertions, deletions, substitutions and swaps of neighbours, each one
    /// edit (a typo such as "sttas" is one swap from "stats").
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
