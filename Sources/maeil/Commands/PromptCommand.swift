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

    @Flag(help: "Start a new collection at the --collection path if there is none.") var create = false

    func run(in context: CommandContext) throws {
        guard !context.atPrompt else { throw UsageError("this is the prompt already") }
        let path = CollectionLocation.resolve(explicit: collection.path, environment: context.variables)
        // A collection in a read-only place or on a full disk opens for reading: the prompt's reads work, its writes say why not.
        let (opened, readOnly): (Collection, StoreError?) = try {
            do { return (try context.collection(collection, mayCreate: true, create: create), nil) } catch let error as StoreError {
                switch error { case .readOnlyPlace, .diskFull: break; default: throw error }
                return (try context.collection(collection, readOnly: true), error)
            }
        }()
        if let readOnly { context.console.error(readOnly.userError.description) }
        let promptContext = CommandContext.prompt(on: opened, path: path, from: context, completer: Completions.completer(for: opened), readOnlyBecause: readOnly)
        Prompt.run(promptContext, collection: opened)
    }
}
