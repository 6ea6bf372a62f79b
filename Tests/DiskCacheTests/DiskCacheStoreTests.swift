import DiskCache
import Foundation
import HTTPCore
import TestSupport
import Testing

/// The store's files: verification of heads and bodies on read, session entries at start, the sweep of
/// abandoned writes, bodies pinned to their head, and two stores on one directory.
struct DiskCacheStoreTests {
    let key = "https://example.com/a"
    let body = DataPath.bytes(5000)

    @Test func aCorruptOrTruncatedHeadReadsAsNoEntryAndIsRemoved() async throws {
        for damage in ["flip", "truncate", "empty", "append"] {
            let fixture = try DiskCacheFixture()
            defer { fixture.remove() }
            try await DiskCacheFixture.commit(fixture.store(), key, body)
            let headPath = fixture.root + "/entries/" + fixture.heads[0]
            var bytes = try #require(DataPath.read(headPath))
            switch damage {
            case "flip": bytes[bytes.count / 2] ^= 0x01
            case "truncate": bytes.removeLast(bytes.count / 3)
            case "empty": bytes = []
            default: bytes.append(0)
            }
            try DataPath.write(bytes, to: headPath)
            let store = fixture.store()
            #expect(try await store.entry(forKey: key) == nil, "a \(damage)ed head was served")
            #expect(fixture.heads.isEmpty, "the \(damage)ed head was left on disk")
            #expect(fixture.bodies.isEmpty, "the body of a \(damage)ed head was left on disk")
        }
    }

    @Test func aHeadDamagedWhileTheStoreRunsIsNotServed() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        try await DiskCacheFixture.commit(store, key, body)
        #expect(try await store.entry(forKey: key) != nil)
        let headPath = fixture.root + "/entries/" + fixture.heads[0]
        var bytes = try #require(DataPath.read(headPath))
        bytes[20] ^= 0xFF
        try? FileManager.default.removeItem(atPath: headPath)  // a new file: another identity than the indexed one
        try DataPath.write(bytes, to: headPath)
        #expect(try await store.entry(forKey: key) == nil, "the index served a head that changed on disk")
        #expect(fixture.heads.isEmpty)
    }

    /// A value that is not UTF-8 (`café` in Latin-1) and a name's case come back byte for byte, so a later
    /// head update still finds the head it was given.
    @Test func headFieldsRoundTripByteForByte() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        var head = DiskCacheFixture.head("x")
        head.headerFields.append(HTTPField(name: HTTPField.Name("X-Latin")!, lenientValue: [0x63, 0x61, 0x66, 0xE9]))
        head.varyingRequestFields[.acceptLanguage] = "de"
        let store = fixture.store()
        let writer = try #require(try await store.makeWriter(forKey: key, head: head, expectedLength: nil))
        try await writer.commit()
        let read = try #require(try await fixture.store().entry(forKey: key)).head
        #expect(read == head)
        #expect(
            read.headerFields.first { $0.name.rawName == "X-Latin" }?.withUnsafeBytesOfValue { Array($0) }
                == [0x63, 0x61, 0x66, 0xE9])
        var refreshed = read
        refreshed.expiresAt = Date(timeIntervalSince1970: 1_800_000_000)
        try await fixture.store().updateHead(refreshed, forKey: key, replacing: read)
        #expect(try await fixture.store().entry(forKey: key)?.head == refreshed)
        #expect(try await DiskCacheFixture.body(store, key) == [])
    }

    @Test func aShortBodyFileReadsAsNoEntry() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        try await DiskCacheFixture.commit(fixture.store(), key, body)
        let bodyPath = fixture.root + "/entries/" + fixture.bodies[0]
        try DataPath.write(Array(body.prefix(100)), to: bodyPath)
        #expect(try await fixture.store().entry(forKey: key) == nil, "a body shorter than its head says was served")
        #expect(fixture.heads.isEmpty)
    }

    @Test func sessionEntriesAreClearedAtStartUnlessConfiguredToSpanRuns() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let first = fixture.store()
        try await DiskCacheFixture.commit(first, key, body, policy: .sessionDuration)
        try await DiskCacheFixture.commit(first, key + "/p", body, policy: .permanent)
        let spanning = fixture.store(clearsSessionEntries: false)
        #expect(try await DiskCacheFixture.body(spanning, key) == body, "a session entry did not span stores")
        let next = fixture.store()
        #expect(try await next.entry(forKey: key) == nil, "a session entry outlived the store's start")
        #expect(try await DiskCacheFixture.body(next, key + "/p") == body, "a permanent entry was cleared")
        #expect(fixture.heads.count == 1 && fixture.bodies.count == 1)
    }

    @Test func abandonedTemporaryFilesAndOrphanBodiesAreSweptAtStart() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        try await DiskCacheFixture.commit(fixture.store(), key, body)
        // A writer killed mid-write (a process that no longer exists) and one killed between its two renames.
        let deadProcess = Int32.max - 7
        try DataPath.write(body, to: "\(fixture.root)/tmp/\(deadProcess)-0123456789abcdef0123456789abcdef")
        let hash = String(fixture.heads[0].prefix(64))
        try DataPath.write(body, to: "\(fixture.root)/entries/\(hash).00000000000000000000000000000000.body")
        #expect(fixture.bodies.count == 2)
        let store = fixture.store()
        #expect(try await DiskCacheFixture.body(store, key) == body)
        #expect(fixture.temporaries.isEmpty, "an abandoned temporary file survived the start")
        #expect(fixture.bodies.count == 1, "an orphaned body survived the start")
    }

    @Test func anOpenBodyKeepsItsBytesWhenTheEntryIsReplacedAndALaterOpenSeesItGone() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let large = DataPath.bytes(300_000)
        try await DiskCacheFixture.commit(store, key, large, tag: "old")
        let entry = try #require(try await store.entry(forKey: key))
        let stream = try #require(try await entry.body.open())
        try await DiskCacheFixture.commit(store, key, body, tag: "new")
        #expect(try await stream.collect(upTo: .max) == large, "an open body changed under its reader")
        #expect(try await entry.body.open() == nil, "a replaced body was opened again")
        #expect(try await DiskCacheFixture.body(store, key) == body)
        #expect(fixture.bodies.count == 1, "the replaced body was not deleted")
    }

    @Test func aDirectoryDeletedWhileTheStoreRunsIsCreatedAgain() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        try await DiskCacheFixture.commit(store, key, body)
        try FileManager.default.removeItem(atPath: fixture.root)
        #expect(try await store.entry(forKey: key) == nil, "an entry outlived its directory")
        try await DiskCacheFixture.commit(store, key, body)
        #expect(try await DiskCacheFixture.body(store, key) == body)
        try await store.removeAll()
        #expect(fixture.heads.isEmpty)
    }

    @Test func fileURLNamesAFileWithExactlyTheBody() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        try await DiskCacheFixture.commit(store, key, body)
        let entry = try #require(try await store.entry(forKey: key))
        let url = try #require(entry.body.fileURL)
        #expect(DataPath.read(url.path) == body)
    }

    @Test func twoStoresOnOneDirectorySeeEachOthersCommitsAndRemovals() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let one = fixture.store()
        let two = fixture.store(clearsSessionEntries: false)
        #expect(try await one.entry(forKey: key) == nil)
        #expect(try await two.entry(forKey: key) == nil)
        try await DiskCacheFixture.commit(one, key, body, tag: "one")
        #expect(try await two.entry(forKey: key)?.head.headerFields[.eTag] == "\"one\"")
        try await DiskCacheFixture.commit(two, key, body.reversed(), tag: "two")
        let seen = try #require(try await one.entry(forKey: key))
        #expect(seen.head.headerFields[.eTag] == "\"two\"", "a store served its stale index entry")
        #expect(try await seen.body.open()?.collect(upTo: .max) == body.reversed())
        try await two.removeEntry(forKey: key)
        #expect(try await one.entry(forKey: key) == nil)
    }

    @Test func concurrentWritersOfOneKeyLeaveOneWholeEntry() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let store = fixture.store()
        let bodies = (0..<8).map { DataPath.bytes(20_000 + $0, seed: UInt32($0 + 1)) }
        try await withThrowingTaskGroup { group in
            for (index, body) in bodies.enumerated() {
                let other = fixture.store(clearsSessionEntries: false)  // as a second process would
                group.addTask {
                    try await DiskCacheFixture.commit(
                        index.isMultiple(of: 2) ? store : other, key, body, tag: "\(index)")
                }
            }
            try await group.waitForAll()
        }
        let entry = try #require(try await store.entry(forKey: key))
        let tag = try #require(entry.head.headerFields[.eTag]?.dropFirst().dropLast()).description
        let winner = try #require(Int(tag))
        #expect(try await entry.body.open()?.collect(upTo: .max) == bodies[winner], "a head got another's body")
        #expect(fixture.heads.count == 1 && fixture.bodies.count == 1 && fixture.temporaries.isEmpty)
    }
}
