import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The folders tests make, all inside one folder of this test process that goes when the
/// process exits: made one by one in the system's temporary folder, each run of the suite left
/// about a hundred behind. MAEIL_KEEP_TEST_FOLDERS=1 keeps them, to look into a failure.
package enum TestFolders {
    private static let run: URL = {
        let run = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-test-run-\(getpid())")
        atexit { TestFolders.removeRun() }
        return run
    }()

    /// A new, empty folder named after `prefix`.
    package static func make(_ prefix: String) -> URL {
        let folder = run.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static func removeRun() {
        guard ProcessInfo.processInfo.environment["MAEIL_KEEP_TEST_FOLDERS"] == nil else { return }
        try? FileManager.default.removeItem(at: run)
    }
}
