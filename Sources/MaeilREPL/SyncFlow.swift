import Foundation
import MaeilCore
import MaeilSession
import MaeilStore
import MaeilSync

/// `maeil sync`: logs in once, then brings this collection and the sync server's copy together,
/// saying what it does and why before it does it.
package enum SyncFlow {
    /// What a sync did, for `--json`.
    package struct Report: Codable, Sendable {
        package var server: String
        package var action: String           // "none", "upload", "download"
        package var reason: String
        package var local: FullSync.Counts?
        package var remote: FullSync.Counts?
        package var backup: String?
        package var media: MediaSync.Summary?
        /// What a normal sync sent and took.
        package var merged: NormalSync.Summary?
    }

    /// Asks for the password (never echoed, never kept) and keeps the key the server gives.
    package static func logIn(_ context: CommandContext, url: String, user given: String?, quiet: Bool = false) throws {
        guard let endpoint = URL(string: url), ["http", "https"].contains(endpoint.scheme?.lowercased() ?? "") else {
            throw UsageError("--login takes the sync server's address, like http://127.0.0.1:8080/")
        }
        guard let user = given ?? context.ask("User name: ").map({ $0.trimmingCharacters(in: .whitespaces) }), !user.isEmpty else {
            throw UsageError("no user name: give --user NAME")
        }
        guard let password = SecretInput.read(prompt: "Password: ", console: context.console), !password.isEmpty else {
            throw UsageError("no password given (at a terminal it is asked for; from a script, pass it on standard input)")
        }
        let key = try SyncServer.logIn(endpoint: endpoint, user: user, password: password)
        let account = SyncAccount(endpoint: SyncConnection(endpoint: endpoint).endpoint.absoluteString, user: user, hostKey: key)
        let stateHome = XDG.stateHome(context.variables)
        try account.save(stateHome: stateHome)
        if quiet { return }
        context.line("Logged in to \(account.endpoint) as \(TerminalText.visible(user)); the login is kept in "
                     + "\(SyncAccount.file(stateHome: stateHome).path), readable by you alone (the password is not).")
    }

    package static func logOut(_ context: CommandContext) throws {
        try SyncAccount.forget(stateHome: XDG.stateHome(context.variables))
        context.line("The sync login is forgotten.")
    }

    /// The server a sync is worth offering with: one is set up, and this collection changed since
    /// it last synced (or never did).
    static func serverToOffer(_ context: CommandContext, collection: Collection) -> String? {
        guard let account = try? SyncAccount.load(stateHome: XDG.stateHome(context.variables)),
              (try? collection.changedSinceSync()) == true else { return nil }
        return account.endpoint
    }

    package static func account(_ context: CommandContext) throws -> SyncAccount {
        guard let account = try SyncAccount.load(stateHome: XDG.stateHome(context.variables)) else {
            throw UserError("no sync server is set up: log in first with maeil sync --login URL (Anki's own server: python -m anki.syncserver)")
        }
        return account
    }

    package static func sync(_ context: CommandContext, collection: Collection, choice: SyncPlan.Choice, json: Bool) throws {
        let account = try account(context)
        guard let endpoint = URL(string: account.endpoint) else { throw UserError("the kept login names no address; log in again") }
        let server = SyncServer(SyncConnection(endpoint: endpoint, hostKey: account.hostKey))
        let sync = FullSync(collection: collection, server: server, now: context.now, timeZone: context.environment.timeZone)
        let status = SyncStatus(enabled: context.console.isInteractive && !json)
        defer { status.clear() }
        func say(_ text: String) {
            status.clear()
            if !json, !text.isEmpty { context.line(text) }
        }
        status.show("Asking \(account.endpoint)")
        // This side's counts, taken before anything changes, where they are shown or decide: a
        // first sync, a full sync's choice, --json. Counting every review took a tenth of a
        // small normal sync (20,000 notes, 100,000 reviews).
        var countedHere: FullSync.Counts?
        func local() throws -> FullSync.Counts {
            if let countedHere { return countedHere }
            let counts = try sync.localCounts()
            countedHere = counts
            return counts
        }
        if json { _ = try local() }
        let meta = try server.meta(), mark = try collection.syncMark(), underWay = try collection.uploadUnderWay()
        // From here a write is a change the sync may not carry; put back unless one side took the other's copy.
        let changedHere = try collection.takeChangeFlag()
        var carried = false
        defer { if changedHere { carried ? try? collection.settleChangeFlag() : try? collection.restoreChangeFlag() } }
        let standing = SyncPlan.standing(recorded: mark, uploaded: underWay, meta: meta, endpoint: account.endpoint)
        let base = standing.flatMap { SyncBase(collectionPath: collection.path).matching($0) }
        var plan = try SyncPlan.decide(meta: meta, mark: mark, endpoint: account.endpoint, changedHere: changedHere, cardsHere: local().cards > 0,
                                       now: context.now, canMerge: !changedHere || base != nil, choice: choice, uploaded: underWay,
                                       changedThere: { try server.changedSince(usn: $0, config: base.flatMap(SyncBase.config(of:))) })
        var report = Report(server: account.endpoint, action: "none", reason: "", local: countedHere)
        if case .normal(let reason) = plan, let standing {
            status.show("Syncing")
            do {
                let summary = try NormalSync(sync).run(meta: meta, mark: standing, base: base, changedHere: changedHere, calendar: BackupView.calendar(context))
                carried = true
                (report.action, report.reason, report.merged, report.backup) = ("normal", reason.rawValue, summary, summary.backup)
                say(describe(summary, server: account.endpoint))
                plan = .inSync
            } catch let error as SyncError where error.kind == .schema {
                say("A normal sync cannot be made: \(error.description).")
                plan = .chooseSide(.cannotMerge)
            }
        }
        var fetched: FullSync.Download?
        var chosen = plan
        if case .chooseSide(let reason) = plan {
            status.show("Fetching the server's copy to compare")
            let download = try sync.fetch()
            status.clear()
            fetched = download
            report.remote = download.counts
            chosen = try choose(context, reason: reason, local: try local(), remote: download.counts, json: json)
        }
        switch chosen {
        case .inSync where report.action == "normal":
            break
        case .inSync, .normal:
            report.reason = "in sync"
            // The server's time moved with nothing changed: remembered, so the next sync need not ask,
            // and the base stands for the new mark too, so the next change here still merges.
            if mark?.serverModified != meta.modified || mark?.schema != meta.schema || underWay != nil {
                let moved = SyncMark(endpoint: account.endpoint, serverModified: meta.modified, schema: meta.schema, usn: meta.usn)
                let kept = standing.flatMap { standing in SyncBase(collectionPath: collection.path).alsoStands(for: moved, holding: standing) ? standing : nil }
                try collection.recordSync(moved, sameBaseAs: kept)
            }
            say("Already in sync with \(account.endpoint).")
        case .refused(let message):
            throw UserError("the sync server will not sync this account: \(TerminalText.visible(message))")
        case .chooseSide:
            report.reason = "nothing chosen"
            say("Nothing was changed on either side.")
        case .upload(let reason):
            say("Uploading the whole collection (\(reason.sentence)): the server's copy is replaced, and your other devices "
                + "will be asked for a full sync next time; choose Download there.")
            status.show("Uploading")
            let sent = try sync.upload()
            carried = true
            (report.action, report.reason, report.remote) = ("upload", reason.rawValue, sent)
            say("Uploaded \(counted(sent)) to \(account.endpoint).")
        case .download(let reason):
            say("Downloading the server's collection (\(reason.sentence)): it replaces this one" + (try local().notes + local().reviews > 0 ? ", which is backed up first." : "."))
            status.show("Downloading")
            let download = try fetched ?? sync.fetch()
            status.show("Putting the server's copy in place")
            let backup = try sync.replace(with: download, calendar: BackupView.calendar(context))
            carried = true
            (report.action, report.reason, report.remote, report.backup) = ("download", reason.rawValue, download.counts, backup?.path)
            say("Downloaded \(counted(download.counts))." + (backup.map { " The collection as it was is kept in \($0.path) (maeil restore takes it back)." } ?? ""))
        }
        if case .chooseSide = chosen {} else {
            status.show("Pictures and sounds")
            let media = try MediaSync(collection: collection, server: server).run()
            report.media = media
            say(describe(media))
        }
        if json { context.verbatim(try JSONOutput.string(report)) }
    }

    /// "Synced with URL: 3 cards, 1 note and 5 reviews went up; 2 cards and 2 reviews came down."
    static func describe(_ summary: NormalSync.Summary, server: String) -> String {
        func part(_ cards: Int, _ notes: Int, _ reviews: Int, _ deletions: Int, _ verb: String) -> String? {
            func count(_ number: Int, _ noun: String) -> String? { number == 0 ? nil : "\(number) \(noun)\(number == 1 ? "" : "s")" }
            let items = [count(cards, "card"), count(notes, "note"), count(reviews, "review"), count(deletions, "deletion")].compactMap { $0 }
            return items.isEmpty ? nil : items.joined(separator: ", ") + " " + verb
        }
        let parts = [part(summary.sentCards, summary.sentNotes, summary.sentReviews, summary.sentDeletions, "went up"),
                     summary.sentSettings ? "the collection's settings went up" : nil,
                     // Said where nothing else went up: answers going up take their decks' counts along.
                     summary.sentDayCounts == 0 || summary.sentCards + summary.sentNotes + summary.sentReviews + summary.sentDeletions > 0 ? nil
                        : "the day's counts of \(summary.sentDayCounts) deck\(summary.sentDayCounts == 1 ? "" : "s") went up",
                     part(summary.receivedCards, summary.receivedNotes, summary.receivedReviews, summary.receivedDeletions, "came down")].compactMap { $0 }
        var text = "Synced with \(server): " + (parts.isEmpty ? "nothing changed on either side." : parts.joined(separator: "; ") + ".")
        if summary.recomputedCards > 0 {
            let cards = summary.recomputedCards == 1 ? "1 card was" : "\(summary.recomputedCards) cards were"
            text += " \(cards) answered on both sides: each one's memory now comes from every answer (the next sync takes it up)."
        }
        return text
    }

    /// "Pictures and sounds: 3 files came down, 1 file went up." — nothing when nothing moved.
    static func describe(_ media: MediaSync.Summary) -> String {
        func files(_ count: Int) -> String { "\(count) file\(count == 1 ? "" : "s")" }
        var parts: [String] = []
        if media.downloaded > 0 { parts.append("\(files(media.downloaded)) came down") }
        if media.uploaded > 0 { parts.append("\(files(media.uploaded)) went up") }
        if media.deletedHere > 0 { parts.append("\(files(media.deletedHere)) deleted here as on the server") }
        if media.deletedThere > 0 { parts.append("\(files(media.deletedThere)) deleted on the server as here") }
        var text = parts.isEmpty ? "" : "Pictures and sounds: " + parts.joined(separator: ", ") + "."
        if !media.inAgreement {
            text += (text.isEmpty ? "" : " ") + "The server counts another number of pictures and sounds than this side; sync again to settle it."
        }
        return text
    }

    /// Both sides changed: the learner picks one, seeing what each holds; a script must say.
    static func choose(_ context: CommandContext, reason: SyncPlan.Reason, local: FullSync.Counts, remote: FullSync.Counts, json: Bool) throws -> SyncPlan {
        let sides = "this collection: \(counted(local)); the server's: \(counted(remote))"
        guard context.console.isInteractive, !json else {
            throw UserError("a full sync is needed (\(reason.sentence)); \(sides). Run maeil sync --upload to keep this collection "
                            + "or maeil sync --download to keep the server's")
        }
        context.line("A full sync is needed: \(reason.sentence).")
        for row in sidesTable(local: local, remote: remote) { context.line(row) }
        let answer = context.ask("Keep which? u this one (upload), d the server's (download), n neither [n]: ")?.lowercased() ?? ""
        switch answer.trimmingCharacters(in: .whitespaces) {
        case "u", "upload": return .upload(.asked)
        case "d", "download": return .download(.asked)
        default: return .chooseSide(reason)
        }
    }

    /// What each side holds, as a table whose numbers line up: as two sentences, the server's
    /// broke across lines at 60 columns and the two sides' counts stood apart.
    static func sidesTable(local: FullSync.Counts, remote: FullSync.Counts) -> [String] {
        func row(_ label: String, _ counts: FullSync.Counts) -> [String] { [label] + [counts.notes, counts.cards, counts.reviews].map(String.init) }
        return TextTable.render(header: ["", "notes", "cards", "reviews"], rows: [row("This collection", local), row("The server's copy", remote)],
                                rightAligned: [1, 2, 3])
            .split(separator: "\n").map { "  " + $0 }
    }

    static func counted(_ counts: FullSync.Counts) -> String {
        func number(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return "\(number(counts.notes, "note")), \(number(counts.cards, "card")), \(number(counts.reviews, "review"))"
    }
}

/// What a sync is doing, on one line of standard error at a terminal (nothing elsewhere),
/// written over as it goes and cleared at the end.
final class SyncStatus {
    let enabled: Bool
    private var shown = false

    init(enabled: Bool) { self.enabled = enabled && isatty(STDERR_FILENO) == 1 }

    func show(_ step: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(step)…".utf8))
        shown = true
    }

    func clear() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        shown = false
    }
}

/// A password: read at a terminal with echo off, or as one line of standard input from a script.
enum SecretInput {
    static func read(prompt: String, console: Console) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return Swift.readLine(strippingNewline: true) }
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            console.line()
        }
        console.write(prompt)
        // Byte by byte, as the line editor reads: nothing typed after the Enter is held back
        // in a buffer it would never see. Ctrl-C gives up.
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR, !SignalHandling.interrupted { continue }
            if count <= 0 || SignalHandling.interrupted {
                SignalHandling.takeInterrupt()
                return nil
            }
            if byte == 0x0A || byte == 0x0D { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self).nfc
    }
}
