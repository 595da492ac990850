import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MaeilDecks

/// One conversation with an Anki sync server (AnkiWeb, or `python -m anki.syncserver`), in the
/// protocol's version 11: every call is a POST of a zstd-compressed body to `sync/METHOD`, with
/// the host key, the client's name and a per-sync session key in the `anki-sync` header; every
/// answer is a zstd stream.
package struct SyncConnection: Sendable {
    /// The server's address, ending in "/".
    package var endpoint: URL
    /// What the server gave for the user's name and password at login; empty before it.
    package var hostKey: String
    /// One per sync: the server ties the steps of a sync together by it.
    let session = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    /// Largest answer taken (the server's own limit is 100 MiB compressed, three times that unpacked).
    static let answerLimit: Int64 = 1 << 30

    /// Anki reads the short form from the header and the long one from `meta`.
    static let shortVersion = "maeil,0.1,linux"
    package static let longVersion = "maeil,0.1 (maeil),linux"

    package init(endpoint: URL, hostKey: String = "") {
        self.endpoint = endpoint.absoluteString.hasSuffix("/") ? endpoint : endpoint.appendingPathComponent("")
        self.hostKey = hostKey
    }

    /// `method` with a JSON body, answering JSON (`null` for nothing).
    package func call(_ method: String, _ body: [String: Any] = [:]) throws -> Any {
        try call(method, json: try JSONSerialization.data(withJSONObject: body))
    }

    /// The same with the body already JSON.
    package func call(_ method: String, json body: Data) throws -> Any {
        let data = try post(method, body: body)
        return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    /// A media call (`msync/METHOD`): its answer comes as `{"data": …, "err": ""}`.
    package func mediaCall(_ method: String, _ body: [String: Any] = [:]) throws -> Any {
        let data = try post(method, body: try JSONSerialization.data(withJSONObject: body), media: true)
        return try Self.unwrap(data)
    }

    static func unwrap(_ data: Data) throws -> Any {
        guard let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any] else {
            throw SyncError(.server, "the sync server's media answer is not Anki's")
        }
        if let error = object["err"] as? String, !error.isEmpty { throw SyncError(.server, "the sync server's media sync failed: \(error)") }
        return object["data"] ?? NSNull()
    }

    /// `method` with `body` as it is; the answer unpacked, into the file `answer` when one is
    /// given (a collection for `download`: never held in memory whole, only its compressed form).
    package func post(_ method: String, body: Data, media: Bool = false, answer: URL? = nil) throws -> Data {
        try unpacked(try send(method, compressedBody: try Zstd.compress(body), media: media), into: answer)
    }

    /// The same with the body a file (a collection for `upload`), compressed a chunk at a time.
    package func post(_ method: String, bodyFile: URL) throws -> Data {
        let compressed = bodyFile.deletingLastPathComponent().appendingPathComponent(bodyFile.lastPathComponent + ".zst")
        defer { try? FileManager.default.removeItem(at: compressed) }
        try Zstd.compress(file: bodyFile, to: compressed)
        return try unpacked(try send(method, compressedBody: try Data(contentsOf: compressed), media: false))
    }

    /// `method` with an already compressed body; the answer as it came.
    private func send(_ method: String, compressedBody: Data, media: Bool) throws -> Data {
        var request = URLRequest(url: endpoint.appendingPathComponent(media ? "msync" : "sync").appendingPathComponent(method))
        request.httpMethod = "POST"
        request.timeoutInterval = 120
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let header: [String: Any] = ["v": 11, "k": hostKey, "c": Self.shortVersion, "s": session]
        request.setValue(String(decoding: try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]), as: UTF8.self),
                         forHTTPHeaderField: "anki-sync")
        request.httpBody = compressedBody
        let (data, response) = try Self.send(request, endpoint: endpoint)
        guard response.statusCode == 200 else {
            throw SyncError(status: response.statusCode, body: String(decoding: data.prefix(500), as: UTF8.self), endpoint: endpoint)
        }
        return data
    }

    /// An answer unpacked, into `file` when one is given (then the result is empty).
    private func unpacked(_ data: Data, into file: URL? = nil) throws -> Data {
        do {
            if let file {
                try Zstd.decompress(data, to: file, limit: Self.answerLimit)
                return Data()
            }
            return try Zstd.decompress(data, limit: Self.answerLimit)
        } catch is Zstd.TooLarge {
            throw SyncError.answerTooLarge
        } catch is Zstd.Failure {
            throw SyncError.garbled(endpoint)
        }
    }

    /// Nothing kept on disk between runs (the shared session caches answers in ~/.cache).
    private static let urlSession = URLSession(configuration: .ephemeral)

    /// URLSession's callback made a call: a command waits for each step of a sync in turn.
    private static func send(_ request: URLRequest, endpoint: URL) throws -> (Data, HTTPURLResponse) {
        final class Outcome: @unchecked Sendable {
            var data: Data?
            var response: URLResponse?
            var error: Error?
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = urlSession.dataTask(with: request) { data, response, error in
            (outcome.data, outcome.response, outcome.error) = (data, response, error)
            done.signal()
        }
        task.resume()
        done.wait()
        if let error = outcome.error { throw SyncError.unreachable(endpoint, error.localizedDescription) }
        guard let response = outcome.response as? HTTPURLResponse else { throw SyncError.unreachable(endpoint, "no answer") }
        return (outcome.data ?? Data(), response)
    }
}
