import ArgumentParser
import Foundation
import MaeilREPL
import MaeilSession
import MaeilStore

/// `maeil` with no command: the prompt, where every command runs as it does from a shell.
struct PromptCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl", abstract: "Open the review prompt (what `maeil` does with no command).", shouldDisplay: false)

    @OptionGroup var collection: CollectionOptions

    @Flag(help: "Start a new collection at the --collection path if there is none.")
    var create = false

    func run(in context: CommandContext) throws {
        guard !context.atPrompt else { throw UsageError("this is the prompt already") }
        let path = collection.resolvedPath
        let opened = try context.collection(collection, mayCreate: true, create: create)
        let console = StandardConsole()
        let input: LineReader = console.isInteractive
            ? EditLineReader(historyPath: (XDG.stateHome(ProcessInfo.processInfo.environment) as NSString).appendingPathComponent("maeil/history"),
                             completer: Prompt.completer(for: opened))
            : PipedLineReader()
        let promptContext = CommandContext(console: console, input: input, environment: context.environment, config: UserConfig.standard(),
                                           atPrompt: true, defaultCollectionPath: path)
        promptContext.adopt(opened)
        Prompt(context: promptContext, collection: opened).run()
    }
}
