import Foundation

/// What went wrong with a sync, in one sentence a person can act on.
package struct SyncError: Error, CustomStringConvertible, Equatable {
    package enum Kind: Sendable, Equatable {
        case wrongLogin, unreachable, clock, busy, inProgress, refused, server, tooLarge, schema
    }

    package let kind: Kind
    package let description: String

    package init(_ kind: Kind, _ description: String) {
        (self.kind, self.description) = (kind, description)
    }

    /// An HTTP status other than 200, as the protocol gives it meaning.
    init(status: Int, body: String, endpoint: URL) {
        let said = body.trimmingCharacters(in: .whitespacesAndNewlines)
        switch status {
        case 403:
            self.init(.wrongLogin, "the sync server at \(endpoint.absoluteString) refused the login: wrong user name or password, or a login "
                      + "it no longer knows (log in again with maeil sync --login \(endpoint.absoluteString))")
        case 409:
            self.init(.inProgress, "another sync with this account is in progress; try again when it has finished")
        case 429, 502, 503, 504:
            self.init(.busy, "the sync server is busy (HTTP \(status)); try again in a few minutes")
        case 501:
            self.init(.refused, "the sync server speaks another version of Anki's sync protocol than Maeil's (11): \(said)")
        default:
            self.init(.server, "the sync server could not do this step (HTTP \(status))" + (said.isEmpty ? "" : ": \(said)"))
        }
    }

    static func unreachable(_ endpoint: URL, _ reason: String) -> SyncError {
        SyncError(.unreachable, "cannot reach the sync server at \(endpoint.absoluteString) (\(reason)); check the address and that it runs")
    }

    static func garbled(_ endpoint: URL) -> SyncError {
        SyncError(.server, "the sync server at \(endpoint.absoluteString) answered something that is not Anki's sync protocol")
    }

    static let answerTooLarge = SyncError(.tooLarge, "the sync server's answer is larger than 1 GB; Maeil stops there")

    package static func clock(offBy seconds: Int64) -> SyncError {
        SyncError(.clock, "this computer's clock is \(abs(seconds)) seconds \(seconds > 0 ? "behind" : "ahead of") the sync server's; "
                  + "set it right (more than 5 minutes apart, a sync could order answers wrongly)")
    }
}
