import Foundation
import GRDB
import MaeilSQLite
import Testing

@Suite("Binder: rows bound straight through SQLite's C API")
struct BinderTests {
    func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE row (i INTEGER, d REAL, t TEXT, b INTEGER, w INTEGER, u TEXT NOT NULL UNIQUE)")
        }
        return queue
    }

    /// Every kind of value reads back as it was bound, nulls included, over many rows that
    /// reuse one binder (and its text buffer).
    @Test func rowsReadBackAsTheyWereBound() throws {
        let queue = try database()
        let texts = ["김치", "", "日本語のテキスト", String(repeating: "long ", count: 2_000), "a\u{1F}b"]
        try queue.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO row (i, d, t, b, w, u) VALUES (?, ?, ?, ?, ?, ?)")
            var binder = Binder()
            for index in 0..<500 {
                binder.begin(statement)
                binder.int(index % 7 == 0 ? nil : Int64(index) * 1_000_000_007)
                binder.double(index % 5 == 0 ? nil : Double(index) / 3)
                binder.text(index % 6 == 0 ? nil : texts[index % texts.count])
                binder.bool(index % 2 == 0)
                binder.date(Date(unixSeconds: 1_767_614_400 + Int64(index)))
                binder.utf8(Array("unique-\(index)".utf8))
                try binder.step(db)
            }
        }
        let rows = try queue.read { try Row.fetchAll($0, sql: "SELECT * FROM row ORDER BY rowid") }
        #expect(rows.count == 500)
        for (index, row) in rows.enumerated() {
            #expect(row["i"] as Int64? == (index % 7 == 0 ? nil : Int64(index) * 1_000_000_007))
            #expect(row["d"] as Double? == (index % 5 == 0 ? nil : Double(index) / 3))
            #expect(row["t"] as String? == (index % 6 == 0 ? nil : texts[index % texts.count]))
            #expect(row["b"] as Bool == (index % 2 == 0))
            #expect(row["w"] as Int64 == 1_767_614_400 + Int64(index))
            #expect(row["u"] as String == "unique-\(index)")
        }
    }

    /// A row SQLite refuses is an error naming the statement, and the binder goes on after it.
    @Test func aRefusedRowThrowsWithItsStatement() throws {
        let queue = try database()
        try queue.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO row (u) VALUES (?)")
            var binder = Binder()
            binder.begin(statement)
            binder.text("same")
            try binder.step(db)
            binder.begin(statement)
            binder.text("same")
            let error = #expect(throws: DatabaseError.self) { try binder.step(db) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.sql?.contains("INSERT INTO row") == true)
            binder.begin(statement)
            binder.text("other")
            try binder.step(db)
        }
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM row") } == 2)
    }

    @Test func timesAreWholeUnixSecondsAndMilliseconds() {
        let date = Date(timeIntervalSince1970: 1_767_614_400.987)
        #expect(date.unixSeconds == 1_767_614_400)
        #expect(date.unixMilliseconds == 1_767_614_400_987)
        #expect(Date(unixSeconds: 1_767_614_400).timeIntervalSince1970 == 1_767_614_400)
        #expect(Date(timeIntervalSince1970: -1.5).unixSeconds == -2)
    }
}
