import Foundation

/// An exclusive lock on a file of its own beside what it guards (`flock`): waits for another
/// process's, and is held until this value goes away, or the process ends, whichever is first.
package final class FileLock {
    private let descriptor: Int32

    package init(_ path: String) throws {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileFailure.writing(path) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let error = FileFailure.writing(path)
                close(descriptor)
                throw error
            }
        }
    }

    deinit { close(descriptor) }
}
