import Foundation
import GRDB
import MaeilStore
import MaeilTestSupport
import Testing

/// A file that is not Maeil's is refused with the reason and never written to: not its
/// bytes, and no journal or write-ahead log beside it.
@Suite("Files that are not collections")
struct ForeignFileTests {
    static func folderSnapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    static func refused(_ path: String, readOnly: Bool = false) -> String? {
        do {
            _ = try Collection(path: path, readOnly: readOnly)
            return nil
        } catch let error as StoreError {
            switch error {
            case .notACollection, .cannotOpen: return error.description
            default: return "another error: \(error)"
            }
        } catch {
            return "another error: \(error)"
        }
    }

    @Test(arguments: [false, true])
    func aTextFileIsRefusedAndKept(readOnly: Bool) throws {
        let folder = Fixture.temporaryDirectory()
        let path = folder.appendingPathComponent("notes.txt").path
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: path))
        let before = try Self.folderSnapshot(folder)
        let message = try #require(Self.refused(path, readOnly: readOnly))
        #expect(message.contains("not an SQLite database"), "\(message)")
        #expect(try Self.folderSnapshot(folder) == before)
        // check --repair makes nothing out of it either.
        #expect(throws: StoreError.self) { try Collection.recover(from: path, into: folder.appendingPathComponent("recovered.sqlite").path, now: Date()) }
        #expect(try Self.folderSnapshot(folder) == before)
    }

    @Test func anotherProgramsDatabaseIsRefusedAndKept() throws {
        let folder = Fixture.temporaryDirectory()
        let path = folder.appendingPathComponent("collection.anki2").path
        let other = try DatabaseQueue(path: path)
        try other.write { db in
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, flds TEXT); INSERT INTO notes VALUES (1, 'kept')")
        }
        try other.close()
        let before = try Self.folderSnapshot(folder)
        for readOnly in [false, true] {
            let message = try #require(Self.refused(path, readOnly: readOnly))
            #expect(message.contains("it has tables notes"), "\(message)")
        }
        #expect(try Self.folderSnapshot(folder) == before)
    }

    @Test func devicesAndFoldersAreRefused() throws {
        #expect(Self.refused("/dev/null")?.contains("not a regular file") == true)
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal") && !FileManager.default.fileExists(atPath: "/dev/null-wal"))
        #expect(Self.refused(Fixture.temporaryDirectory().path)?.contains("folder") == true)
        // An empty file is a new collection.
        let empty = Fixture.temporaryDirectory().appendingPathComponent("new.sqlite").path
        _ = FileManager.default.createFile(atPath: empty, contents: nil)
        #expect(Self.refused(empty) == nil)
    }
}
