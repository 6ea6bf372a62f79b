import DiskCache
import Foundation
import Glibc
import HTTPCore
import HTTPTesting
import Synchronization
import TestSupport
import Testing

/// `asi --cache DIR` and the disk cache across processes: a run killed with `SIGKILL` in the middle of writing
/// an entry, several runs writing one key at once, session entries across runs, and a 100 MiB entry stored and
/// served in flat memory.
struct ASICommandCacheTests {
    /// A response that announces `full` bytes, sends the first `sent`, then keeps the connection silent.
    static func stalled(_ body: [UInt8], sent: Int, tag: String) -> LoopbackResponse {
        LoopbackResponse.status(
            200, headers: [("ETag", "\"\(tag)\""), ("Content-Length", String(body.count))],
            body: Array(body.prefix(sent))
        ).followed(by: .stall)
    }

    /// Starts `asi --cache dir url`, waits until its temporary body file holds `bytes` bytes, kills it with
    /// `SIGKILL`, and returns the temporary files it left.
    static func killMidWrite(url: URL, cache: String, once bytes: Int, arguments: [String] = []) async throws
        -> [String]
    {
        let child = try ChildProcess(
            executable: ASICommandRun.binary,
            // No timeout of its own.
            arguments: ["--cache", cache, "-s", "-y", "600", "-o", cache + ".out"] + arguments + [url.absoluteString],
            logPath: cache + ".log")
        let deadline = ContinuousClock.now + .seconds(60)  // a hang fails below instead of blocking the suite
        func written() -> Int {
            DataPath.listing(cache + "/tmp").compactMap { name in
                (try? FileManager.default.attributesOfItem(atPath: cache + "/tmp/" + name)[.size] as? Int) ?? nil
            }.max() ?? 0
        }
        while written() < bytes && child.isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        child.send(SIGKILL)
        let status = await child.exited()
        #expect(status == 128 + SIGKILL, "asi ended before it was killed: \(child.logTail)")
        return DataPath.listing(cache + "/tmp")
    }

    @Test func aRunKilledWhileWritingAnEntryLeavesThePreviousEntryWhole() async throws {
        let old = DataPath.bytes(150_000, seed: 1)
        let new = DataPath.bytes(400_000, seed: 2)
        let requests = Mutex(0)
        let server = try LoopbackServer { _ in
            let count = requests.withLock {
                $0 += 1
                return $0
            }
            return count == 1
                ? .status(200, headers: [("ETag", "\"old\"")], body: old)
                : Self.stalled(new, sent: 200_000, tag: "new")
        }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = directory + "/cache"
        let url = server.url("/file")
        let first = try await ASICommandRun.run([
            "--cache", cache, "-s", "-o", directory + "/first", url.absoluteString,
        ])
        #expect(first.status == 0, "\(first.stderr)")

        let left = try await Self.killMidWrite(url: url, cache: cache, once: 200_000)
        #expect(!left.isEmpty, "the run was not killed in the middle of writing (no temporary file)")

        let store = DiskCacheStore(configuration: .init(directory: cache, clearsSessionEntriesAtStart: false))
        let entry = try #require(try await store.entry(forKey: url.absoluteString), "the previous entry was lost")
        #expect(entry.head.headerFields[.eTag] == "\"old\"", "a half-written entry replaced the previous one")
        #expect(try await entry.body.open()?.collect(upTo: .max) == old, "the previous body was damaged")
        #expect(DataPath.listing(cache + "/tmp").isEmpty, "the killed run's temporary file was not swept")
        #expect(DataPath.listing(cache + "/entries").count == 2)
    }

    @Test func aRunKilledWhileWritingANewEntryLeavesNoEntry() async throws {
        let body = DataPath.bytes(400_000, seed: 3)
        let server = try LoopbackServer { _ in Self.stalled(body, sent: 100_000, tag: "new") }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = directory + "/cache"
        let url = server.url("/file")

        #expect(try await !Self.killMidWrite(url: url, cache: cache, once: 100_000).isEmpty, "nothing was being written")
        #expect(DataPath.listing(cache + "/entries").isEmpty, "a killed write published a file")
        let store = DiskCacheStore(configuration: .init(directory: cache, clearsSessionEntriesAtStart: false))
        #expect(try await store.entry(forKey: url.absoluteString) == nil, "a half-written entry was served")
        #expect(DataPath.listing(cache + "/tmp").isEmpty)
    }

    /// Session entries span `asi` runs on one directory until `--cache-clear-session`; `--cache-permanent` ones
    /// stay after it.
    @Test func sessionEntriesSpanRunsUntilClearedAndPermanentOnesStay() async throws {
        let server = try LoopbackServer { request in
            .status(200, headers: [("ETag", "\"e\"")], body: Array(request.path.utf8))
        }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = directory + "/cache"
        let (session, permanent, other) = (server.url("/s"), server.url("/p"), server.url("/o"))
        for arguments in [[session.absoluteString], ["--cache-permanent", permanent.absoluteString]] {
            let run = try await ASICommandRun.run(["--cache", cache, "-s"] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
        }
        func stored() async throws -> [CacheStoragePolicy?] {
            let store = DiskCacheStore(configuration: .init(directory: cache, clearsSessionEntriesAtStart: false))
            return try await [session, permanent].asyncMap {
                try await store.entry(forKey: $0.absoluteString)?.head.storagePolicy
            }
        }
        #expect(try await stored() == [.sessionDuration, .permanent], "an entry did not span runs")
        let clearing = try await ASICommandRun.run([
            "--cache", cache, "--cache-clear-session", "-s", other.absoluteString,
        ])
        #expect(clearing.status == 0, "\(clearing.stderr)")
        #expect(try await stored() == [nil, .permanent], "--cache-clear-session did not end the session alone")
        let usage = try await ASICommandRun.run(["--cache-permanent", other.absoluteString])
        #expect(usage.status == 2, "--cache-permanent without --cache was accepted")
    }

    /// Four processes fetch one URL at once; each gets another body (and `ETag`), sent in two parts so the
    /// writes overlap. Whoever commits last wins, and its head and body stay together.
    @Test func fourRunsWritingOneKeyLeaveOneWholeEntry() async throws {
        let bodies = (0..<4).map { DataPath.bytes(300_000, seed: UInt32(10 + $0)) }
        let requests = Mutex(0)
        let server = try LoopbackServer { _ in
            let index = requests.withLock { count in
                defer { count += 1 }
                return count % 4
            }
            let body = bodies[index]
            return LoopbackResponse.status(
                200, headers: [("ETag", "\"\(index)\""), ("Content-Length", String(body.count))],
                body: Array(body.prefix(150_000))
            ).followed(by: .sleep(.milliseconds(50)), .body(Array(body.dropFirst(150_000))))
        }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = directory + "/cache"
        let url = server.url("/same").absoluteString
        let runs = try await withThrowingTaskGroup(of: ASICommandRun.self) { group in
            for index in 0..<4 {
                group.addTask {
                    try await ASICommandRun.run(["--cache", cache, "-s", "-o", "\(directory)/out\(index)", url])
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for run in runs { #expect(run.status == 0, "\(run.stderr)") }
        let store = DiskCacheStore(configuration: .init(directory: cache, clearsSessionEntriesAtStart: false))
        let entry = try #require(try await store.entry(forKey: url))
        let tag = try #require(entry.head.headerFields[.eTag])
        let winner = try #require(Int(tag.dropFirst().dropLast()))
        #expect(try await entry.body.open()?.collect(upTo: .max) == bodies[winner], "a head got another's body")
        #expect(DataPath.listing(cache + "/entries").count == 2, "a losing writer left files behind")
        #expect(DataPath.listing(cache + "/tmp").isEmpty)
    }

    @Test(.enabled(if: NginxPeer.shouldRun))
    func aHundredMiBEntryIsStoredAndServedInFlatMemory() async throws {
        let chunk = DataPath.bytes(1 << 20)
        let body = LargeBytes.repeated(chunk, times: 100)
        try await withDataNginx(files: ["large.bin": body]) { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let cache = directory + "/cache"
            let url = nginx.url("/files/large.bin").absoluteString
            let source = nginx.documentPath("files/large.bin")

            let store = try await ASICommandRun.run(["--cache", cache, "-s", "-o", directory + "/stored", url])
            #expect(store.status == 0, "\(store.stderr)")
            #expect(
                store.maxResidentKiB > 0 && store.maxResidentKiB < 48 * 1024, "storing: \(store.maxResidentKiB) KiB")
            let disk = DiskCacheStore(configuration: .init(directory: cache, clearsSessionEntriesAtStart: false))
            let entry = try #require(try await disk.entry(forKey: url), "the 100 MiB response was not stored")
            let file = try #require(entry.body.fileURL?.path)
            #expect(FileManager.default.contentsEqual(atPath: file, andPath: source))

            let served = try await ASICommandRun.run(["--cache", cache, "-v", "-o", directory + "/served", url])
            #expect(served.status == 0, "\(served.stderr)")
            // Revalidated with a 304 (nginx sends no max-age), or, with heuristic freshness, a fresh hit.
            let fromCache = served.stderr.contains("status=304") || served.stderr.contains("answered from cache")
            #expect(fromCache, "the body did not come from the cache: \(served.stderr.suffix(2000))")
            #expect(FileManager.default.contentsEqual(atPath: directory + "/served", andPath: source))
            #expect(
                served.maxResidentKiB > 0 && served.maxResidentKiB < 48 * 1024, "serving: \(served.maxResidentKiB) KiB")
            print(
                "asi --cache, 100 MiB: peak RSS storing \(store.maxResidentKiB) KiB, serving \(served.maxResidentKiB) KiB"
            )
        }
    }
}

extension Array {
    /// `map` with an async transform, in order.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
