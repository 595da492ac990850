import Foundation
import MaeilTestSupport

/// Drives the real binary at a terminal: a tmux session on its own server socket.
final class Tmux {
    let socket = "maeil-e2e-\(UUID().uuidString.prefix(8))"
    let session = "maeil"
    let home: URL

    init(home: URL) {
        self.home = home
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// Runs tmux with posix_spawn and waitpid. Foundation's Process never saw the client of
    /// `new-session` exit (tmux forks its server from it), so the tests hung.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { unlink(file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = (["tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // A clean signal mask and default handlers: the test runner's threads block some signals.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw TmuxMissing(code: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    struct TmuxMissing: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "cannot run tmux (\(code)); scripts/setup installs it" }
    }

    /// Starts `maeil ARGUMENTS` in a fresh session, with its own HOME and the speech stub; with
    /// `colour`, NO_COLOR is unset, as on a learner's terminal.
    func start(_ arguments: [String], environment: [String: String] = [:], colour: Bool = false, width: Int = 160, height: Int = 50,
               binary: String = Binary.url.path, directory: String? = nil) throws {
        var variables = [
            "HOME": home.path, "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "MAEIL_SPEECH": "stub", "LANG": "C.UTF-8",
            "TERM": "xterm-256color", "NO_COLOR": "1", "TZ": Fixture.middayTimeZone,
        ].merging(environment) { $1 }
        if colour { variables["NO_COLOR"] = nil }
        let command = (directory.map { "cd '\($0)' && " } ?? "") + "env -u NO_COLOR " + variables.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
            + " '" + binary + "' " + arguments.map { "'\($0)'" }.joined(separator: " ") + "; sleep 600"
        try tmux(["new-session", "-d", "-s", session, "-x", "\(width)", "-y", "\(height)", command])
    }

    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", session, "-l", text])
    }

    func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", session] + keys)
    }

    func resize(width: Int, height: Int = 50) throws {
        try tmux(["resize-window", "-t", session, "-x", "\(width)", "-y", "\(height)"])
    }

    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", session, "-S", "-300"])
    }

    /// What a step waited for and never saw: the test stops there, with the screen it had.
    struct NotShown: Error, CustomStringConvertible {
        let waitedFor: String
        let screen: String
        var description: String { "the terminal never showed \"\(waitedFor)\"; it showed:\n\(screen)" }
    }

    /// Waits until the screen shows `text` and returns the screen; throws `NotShown` when it
    /// does not within `timeout`, so a test fails at the step that went wrong.
    @discardableResult
    func wait(for text: String, timeout: TimeInterval = 15) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var current = ""
        while Date() < deadline {
            current = try screen()
            if current.contains(text) { return current }
            usleep(20_000)
        }
        throw NotShown(waitedFor: text, screen: current)
    }

    /// Waits until the screen's last `count` lines hold `text`: output that follows a line
    /// already seen may still be on its way. Throws `NotShown` when they do not.
    @discardableResult
    func waitForLastLines(_ count: Int, containing text: String, timeout: TimeInterval = 15) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var lines: [String] = []
        while Date() < deadline {
            lines = try lastLines(count)
            if lines.joined().contains(text) { return lines }
            usleep(20_000)
        }
        throw NotShown(waitedFor: text, screen: lines.joined(separator: "\n"))
    }

    /// Waits until `condition` holds for the screen (something left it, say).
    @discardableResult
    func wait(until description: String, timeout: TimeInterval = 15, _ condition: (String) throws -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var current = ""
        while Date() < deadline {
            current = try screen()
            if try condition(current) { return current }
            usleep(20_000)
        }
        throw NotShown(waitedFor: description, screen: current)
    }

    /// The screen's last non-empty lines.
    func lastLines(_ count: Int = 3) throws -> [String] {
        Array(try screen().split(separator: "\n").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.suffix(count))
    }
}
