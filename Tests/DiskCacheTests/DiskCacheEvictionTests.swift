import DiskCache
import Foundation
import HTTPCore
import TestSupport
import Testing

/// The size limit: least recently used entries go first, by the committing writer or by `run()`.
struct DiskCacheEvictionTests {
    /// Four 10 kB entries fit in 45 kB; the fifth makes room by removing the least recently used.
    @Test func theLeastRecentlyUsedEntryIsEvictedFirst() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let store = fixture.store(maxSize: 45_000)
        let body = DataPath.bytes(10_000)
        for name in ["a", "b", "c", "d"] { try await DiskCacheFixture.commit(store, "k/\(name)", body) }
        #expect(try await store.entry(forKey: "k/a") != nil)  // a is now more recent than b
        try await DiskCacheFixture.commit(store, "k/e", body)
        #expect(try await store.entry(forKey: "k/b") == nil, "the least recently used entry was kept")
        for name in ["a", "c", "d", "e"] {
            #expect(try await store.entry(forKey: "k/\(name)") != nil, "\(name) was evicted before b")
        }
        #expect(store.knownSize <= 45_000)
        #expect(fixture.heads.count == 4 && fixture.bodies.count == 4)
    }

    @Test func recencySurvivesARestartThroughAccessTimes() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let body = DataPath.bytes(10_000)
        let first = fixture.store()
        for name in ["a", "b", "c"] { try await DiskCacheFixture.commit(first, "k/\(name)", body) }
        // Make "a" the most recently used in a way a later process can see: its head's access time.
        let headOfA = fixture.heads.first { name in
            DataPath.read(fixture.root + "/entries/" + name)?.contains(Array("k/a".utf8)) ?? false
        }
        for head in fixture.heads {
            let time = head == headOfA ? 2_000_000_000 : 1_000_000_000
            var times = [timespec(tv_sec: time, tv_nsec: 0), timespec(tv_sec: time, tv_nsec: 0)]
            utimensat(AT_FDCWD, fixture.root + "/entries/" + head, &times, 0)
        }
        let next = fixture.store(maxSize: 25_000)
        #expect(try await next.entry(forKey: "k/a") != nil, "the most recently used entry was evicted at start")
        #expect(next.knownSize <= 25_000)
    }

    @Test func runEvictsOffTheCommittingRequest() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let store = fixture.store(maxSize: 25_000)
        let body = DataPath.bytes(10_000)
        try await withThrowingTaskGroup { group in
            group.addTask { try await store.run() }
            for name in ["a", "b", "c", "d"] { try await DiskCacheFixture.commit(store, "k/\(name)", body) }
            while store.knownSize > 25_000 { try await Task.sleep(for: .milliseconds(5)) }
            try await store.shutdown()
            try await group.waitForAll()  // run() returns after shutdown
        }
        #expect(try await store.entry(forKey: "k/d") != nil, "the newest entry was evicted")
        #expect(try await store.entry(forKey: "k/a") == nil, "the oldest entry was kept over the limit")
    }

    @Test func anEntryOverTheEntryCapIsDeclinedAndTheTransferGoesOn() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let store = DiskCacheStore(configuration: .init(directory: fixture.root, maxEntrySize: 1500))
        #expect(try await store.makeWriter(forKey: "k", head: DiskCacheFixture.head("x"), expectedLength: 1501) == nil)
        let writer = try #require(
            try await store.makeWriter(forKey: "k", head: DiskCacheFixture.head("x"), expectedLength: nil))
        #expect(try await writer.write(DataPath.bytes(1000)) == .accepted)
        #expect(try await writer.write(DataPath.bytes(1000)) == .declined)
        await writer.abort()
        #expect(fixture.temporaries.isEmpty, "a declined entry left its temporary file")
    }
}
