import ArgumentParser
import Foundation
import MaeilPrograms
import MaeilREPL
import MaeilStore

/// A `maeil` command: one swift-argument-parser struct that runs the same way at the prompt
/// and from a shell, with what the `CommandContext` gives it.
protocol MaeilCommand: ParsableCommand {
    func run(in context: CommandContext) throws
}

extension MaeilCommand {
    /// From a shell: a context of its own, on standard input and output.
    mutating func run() throws {
        let context = CommandContext.shell(variables: ThisProcess.variables)
        defer { context.closeCollections() }
        try run(in: context)
    }
}

extension CommandContext {
    /// The collection a command's `--collection` names, or the context's own when it names none
    /// (see `collection(named:readOnly:mayCreate:create:)`).
    func collection(_ options: CollectionOptions, readOnly: Bool = false, mayCreate: Bool = false, create: Bool = false) throws -> Collection {
        try collection(named: options.path, readOnly: readOnly, mayCreate: mayCreate, create: create)
    }
}
