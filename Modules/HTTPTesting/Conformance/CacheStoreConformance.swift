import FoundationEssentials
public import HTTPCore

/// Checks the ``CacheStore`` contract: head-first lookups with lazy bodies, entries visible only after commit,
/// aborted and abandoned writes that leave nothing (and keep the previous entry), head-only updates, removal by
/// key, by storage policy and of everything, and declined writes.
public enum CacheStoreConformance {
    /// Runs every check, each on a fresh store.
    /// - Parameters:
    ///   - cap: The store's entry-size cap in bytes, when it has one: the suite then checks that a larger entry
    ///     is declined (up front or while written) and never becomes visible. `nil` skips that check.
    ///   - makeStore: Makes an empty store.
    /// - Throws: ``ConformanceFailure`` for the first failed check, or what the store throws.
    public static func run(
        declinesEntriesOver cap: Int? = nil,
        _ makeStore: () async throws -> any CacheStore
    ) async throws {
        var checker = ConformanceChecker(suite: "CacheStoreConformance")
        let a = "https://example.com/a"
        let b = "https://example.com/b"

        checker.check = "missingIsNil"
        var store = try await makeStore()
        try checker.expect(try await store.entry(forKey: a) == nil, "an empty store returned an entry")

        checker.check = "commitMakesVisible"
        let first = Sample(version: 1)
        var writer = try await checker.writer(store, a, first)
        try checker.expect(try await store.entry(forKey: a) == nil, "an entry was visible before its commit")
        try await writer.commit()
        try await checker.expectEntry(store, a, first, "after commit")
        try checker.expect(try await store.entry(forKey: b) == nil, "another key returned an entry")

        checker.check = "lazyBodyOpensRepeatedly"
        guard let looked = try await store.entry(forKey: a) else {
            throw ConformanceFailure(suite: checker.suite, check: checker.check, detail: "the entry went away")
        }
        for _ in 0..<2 {
            try checker.expect(try await body(of: looked) == first.body, "opening the body again changed it")
        }

        checker.check = "replaceOnCommit"
        let second = Sample(version: 2, policy: .permanent)
        writer = try await checker.writer(store, a, second)
        try await checker.expectEntry(store, a, first, "while a replacement was being written")
        try await writer.commit()
        try await checker.expectEntry(store, a, second, "after a replacement was committed")
        let replacedBody = try await body(of: looked)
        try checker.expect(
            replacedBody == nil || replacedBody == first.body,
            "a body looked up before a replacement yielded other bytes than its own")

        checker.check = "lastCommitWins"
        let early = try await checker.writer(store, b, first)
        let late = try await checker.writer(store, b, second)
        try await late.commit()
        try await early.commit()
        try await checker.expectEntry(store, b, first, "after two writers committed")

        checker.check = "abortLeavesNothing"
        store = try await makeStore()
        writer = try await checker.writer(store, a, first)
        await writer.abort()
        await writer.abort()  // aborting twice is fine
        try checker.expect(try await store.entry(forKey: a) == nil, "an aborted entry became visible")
        try await checker.writer(store, a, first).commit()
        writer = try await checker.writer(store, a, second)
        await writer.abort()
        try await checker.expectEntry(store, a, first, "after a replacement was aborted")

        checker.check = "abandonedWriterLeavesNothing"
        _ = try await checker.writer(store, a, second)  // never committed: a crash or a task that stopped
        _ = try await checker.writer(store, b, second)
        try await checker.expectEntry(store, a, first, "after a replacement was abandoned")
        try checker.expect(try await store.entry(forKey: b) == nil, "an abandoned entry became visible")

        checker.check = "updateHeadKeepsBody"
        var refreshed = first.head
        refreshed.headerFields[.eTag] = "\"refreshed\""
        refreshed.storedAt = first.head.storedAt + 600
        refreshed.expiresAt = first.head.storedAt + 1200
        try await store.updateHead(refreshed, forKey: a, replacing: first.head)
        try await checker.expectEntry(store, a, Sample(head: refreshed, body: first.body), "after a head update")
        try await store.updateHead(refreshed, forKey: b, replacing: first.head)
        try checker.expect(try await store.entry(forKey: b) == nil, "a head update created an entry")

        checker.check = "updateHeadOnlyReplacesTheHeadItWasGiven"
        try await checker.writer(store, b, second).commit()
        try await store.updateHead(refreshed, forKey: b, replacing: first.head)  // b holds another entry now
        try await checker.expectEntry(store, b, second, "after a head update meant for an entry since replaced")

        checker.check = "removeByKey"
        try await store.removeEntry(forKey: a)
        try checker.expect(try await store.entry(forKey: a) == nil, "a removed entry was still returned")
        try await store.removeEntry(forKey: a)  // removing twice is fine

        checker.check = "removeByPolicy"
        store = try await makeStore()
        try await checker.writer(store, a, first).commit()
        try await checker.writer(store, b, second).commit()
        try await store.removeEntries(with: .sessionDuration)
        try checker.expect(try await store.entry(forKey: a) == nil, "a session entry outlived removeEntries")
        try await checker.expectEntry(store, b, second, "after the session entries were removed")
        try await store.removeEntries(with: .permanent)
        try checker.expect(try await store.entry(forKey: b) == nil, "a permanent entry outlived removeEntries")

        checker.check = "removeAll"
        try await checker.writer(store, a, first).commit()
        try await checker.writer(store, b, second).commit()
        try await store.removeAll()
        try checker.expect(try await store.entry(forKey: a) == nil, "removeAll left an entry")
        try checker.expect(try await store.entry(forKey: b) == nil, "removeAll left an entry")

        if let cap {
            checker.check = "declinesOversizedEntries"
            try await checker.checkDeclines(over: cap, store: makeStore())
        }
    }

    static func body(of entry: CacheEntry) async throws -> [UInt8]? {
        try await entry.body.open()?.collect(upTo: .max)
    }
}
