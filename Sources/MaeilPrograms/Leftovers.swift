import Foundation

/// Files a process writes before it renames or removes them carry its process id, so that
/// whoever comes next can tell a killed process's leftovers from a running one's work and
/// remove them: `name(prefix, suffix)` makes such a name, `removeDead` clears a folder of
/// those whose process is gone.
package enum Leftovers {
    /// `PREFIX` + this process's id + a random part + `SUFFIX`.
    package static func name(_ prefix: String, _ suffix: String = "") -> String {
        "\(prefix)\(getpid())-\(UUID().uuidString)\(suffix)"
    }

    /// Removes the entries of `folder` named `PREFIX` + a process id + … + `SUFFIX` whose
    /// process no longer runs. Returns how many went.
    @discardableResult
    package static func removeDead(in folder: URL, prefix: String, suffix: String = "") -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(suffix) {
            guard let pid = pid_t(name.dropFirst(prefix.count).prefix { $0.isNumber }), pid > 0 else { continue }
            // Alive, or someone else's (EPERM): left alone.
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            if (try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))) != nil { removed += 1 }
        }
        return removed
    }
}
