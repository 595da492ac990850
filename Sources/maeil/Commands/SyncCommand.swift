import ArgumentParser
import MaeilREPL
import MaeilSession

struct SyncCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the collection with an Anki sync server (Anki's own, or AnkiWeb's protocol): phones and other computers share it.",
        discussion: """
            Log in once with --login URL; then maeil sync brings the two copies together as Anki's own client does: \
            only what changed on each side since the last sync crosses, every answer on both sides survives, and a \
            card or note changed on both takes the newer change. The whole collection crosses (a full sync) only \
            where Anki would make one (the first sync, a note type's fields or card types changed, a full sync \
            elsewhere): when only one side changed, its copy replaces the other's; when both did, you choose \
            (--upload keeps this one, --download the server's), and a download backs this collection up first. \
            Pictures and sounds sync both ways.
            """)

    @OptionGroup var collection: CollectionOptions

    @Option(help: ArgumentHelp("Log in to the sync server at URL first (the password is asked for, or read from standard input).",
                               valueName: "URL")) var login: String?

    @Option(help: "The user name to log in with (asked for when not given).") var user: String?

    @Flag(help: "Forget the kept login.") var logout = false

    @Flag(help: "Replace the server's copy with this collection.") var upload = false

    @Flag(help: "Replace this collection with the server's copy (backed up first).") var download = false

    @Flag(help: "Print what was done as JSON.") var json = false

    @Flag(help: "Start a new collection at the --collection path if there is none (to download into).") var create = false

    func validate() throws {
        if upload && download { throw ValidationError("--upload and --download cannot go together: pick the side to keep") }
    }

    func run(in context: CommandContext) throws {
        if logout { return try SyncFlow.logOut(context) }
        if let login { try SyncFlow.logIn(context, url: login, user: user, quiet: json) }
        try SyncFlow.sync(context, collection: try context.collection(collection, mayCreate: true, create: create), choice: upload ? .upload : download ? .download : .automatic, json: json)
    }
}
