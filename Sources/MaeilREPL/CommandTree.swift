import Foundation

/// The command tree as swift-argument-parser describes it (`maeil --experimental-dump-help`):
/// every command, its options and arguments, and how each value completes. Completion at the
/// prompt and the nearest-command guess read it, so they never keep a list of their own.
package struct CommandTree: Sendable, Equatable {
    package var name: String
    package var visible: Bool
    package var options: [Option]
    /// Positional arguments, in order.
    package var positionals: [Value]
    package var subcommands: [CommandTree]

    /// `--name` or `-n`, with the value it takes, if any.
    package struct Option: Sendable, Equatable {
        package var names: [String]
        package var value: Value?

        package init(names: [String], value: Value? = nil) {
            self.names = names
            self.value = value
        }
    }

    /// A value: how it completes, and how swift-argument-parser's `---completion` names it.
    package struct Value: Sendable, Equatable {
        package var completion: Completion
        package var repeating: Bool
        /// "positional@N" or "--name".
        package var key: String

        package init(completion: Completion, repeating: Bool = false, key: String) {
            self.completion = completion
            self.repeating = repeating
            self.key = key
        }
    }

    package enum Completion: Sendable, Equatable {
        case none
        case list([String])
        case files(extensions: [String])
        case directories
        /// Computed by the command's own completion function.
        case custom
    }

    package init(name: String, visible: Bool = true, options: [Option] = [], positionals: [Value] = [], subcommands: [CommandTree] = []) {
        self.name = name
        self.visible = visible
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
    }

    package func subcommand(_ name: String) -> CommandTree? { subcommands.first { $0.name == name } }

    /// The option named `word` (`--deck`, `-o`).
    package func option(_ word: String) -> Option? { options.first { $0.names.contains(word) } }
}

extension CommandTree {
    /// The tree from swift-argument-parser's JSON description of a command.
    package init(dumpHelp json: String) throws {
        self.init(try JSONDecoder().decode(DumpedTool.self, from: Data(json.utf8)).command)
    }

    init(_ command: DumpedCommand) {
        var options: [Option] = [], positionals: [Value] = []
        for argument in command.arguments ?? [] {
            let completion = argument.completionKind.map(Completion.init) ?? (argument.allValues.map { .list($0) } ?? .none)
            switch argument.kind {
            case "positional":
                positionals.append(Value(completion: completion, repeating: argument.isRepeating, key: "positional@\(positionals.count)"))
            default:
                let names = (argument.names ?? []).map { ($0.kind == "short" ? "-" : "--") + $0.name }
                let key = argument.preferredName.map { ($0.kind == "short" ? "-" : "--") + $0.name } ?? names.first ?? ""
                options.append(Option(names: names, value: argument.kind == "option"
                                      ? Value(completion: completion, repeating: argument.isRepeating, key: key) : nil))
            }
        }
        self.init(name: command.commandName, visible: command.shouldDisplay ?? true, options: options, positionals: positionals,
                  subcommands: (command.subcommands ?? []).map(CommandTree.init))
    }
}

/// The parts of swift-argument-parser's dump (its ToolInfo, version 0) the tree reads.
struct DumpedTool: Decodable {
    let command: DumpedCommand
}

struct DumpedCommand: Decodable {
    let commandName: String
    let shouldDisplay: Bool?
    let subcommands: [DumpedCommand]?
    let arguments: [DumpedArgument]?
}

struct DumpedArgument: Decodable {
    struct Name: Decodable {
        let kind: String
        let name: String
    }

    let kind: String
    let names: [Name]?
    let preferredName: Name?
    let isRepeating: Bool
    let allValues: [String]?
    let completionKind: DumpedCompletion?
}

/// `{"list": {"values": […]}}`, `{"file": {"extensions": […]}}`, `{"directory": {}}`, `{"custom": {}}`…
struct DumpedCompletion: Decodable {
    struct Values: Decodable { let values: [String]? ; let extensions: [String]? }

    let list: Values?
    let file: Values?
    let directory: Values?
    let custom: Values?
    let customAsync: Values?
    let customDeprecated: Values?
}

extension CommandTree.Completion {
    init(_ dumped: DumpedCompletion) {
        if let list = dumped.list {
            self = .list(list.values ?? [])
        } else if let file = dumped.file {
            self = .files(extensions: file.extensions ?? [])
        } else if dumped.directory != nil {
            self = .directories
        } else if dumped.custom != nil || dumped.customAsync != nil || dumped.customDeprecated != nil {
            self = .custom
        } else {
            self = .none
        }
    }
}
