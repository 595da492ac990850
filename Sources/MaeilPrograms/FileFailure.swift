import Foundation

/// A system call on a file that failed, as Foundation reports one: the file, and `errno`'s
/// error under it (read at once, before another call changes it).
package enum FileFailure {
    package static func writing(_ path: String, _ code: CocoaError.Code = .fileWriteUnknown) -> CocoaError {
        CocoaError(code, userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
    }
}
