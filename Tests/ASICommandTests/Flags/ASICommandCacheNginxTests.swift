import Foundation
import HTTPCore
import TestSupport
import Testing

/// `asi --cache` against a real nginx whose access log shows which requests reached it: a fresh entry answers
/// without the network, a stale one is revalidated with a 304 and the stored body answers, `fallback` answers
/// with nginx stopped, `dont-load` answers 504 without the network, and `-v` says which of these happened.
@Suite("asi: cache against nginx", .enabled(if: NginxPeer.shouldRun))
struct ASICommandCacheNginxTests {
    /// Runs `asi -s -v --cache <cache> [extra] url` and returns the run.
    func asi(_ url: URL, cache: String, _ extra: [String] = []) async throws -> ASICommandRun {
        try await ASICommandRun.run(["-s", "-v", "--cache", cache] + extra + [url.absoluteString])
    }

    func scratch() throws -> String {
        try makeTemporaryDirectory(prefix: "asikit-cache-nginx-run")
    }

    @Test func aFreshEntryIsServedWithoutTheNetwork() async throws {
        try await withCacheNginx { nginx in
            let directory = try scratch()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let url = nginx.url("/fresh/1k.bin")
            let first = try await asi(url, cache: directory + "/cache")
            #expect(first.status == 0 && first.stdout == NginxPeer.oneKiB)
            #expect(first.stderr.contains("* cache: miss"), "\(first.stderr)")
            let second = try await asi(url, cache: directory + "/cache")
            #expect(second.status == 0 && second.stdout == NginxPeer.oneKiB)
            #expect(second.stderr.contains("* cache: hit"), "\(second.stderr)")
            #expect(nginx.accessLog == ["GET /fresh/1k.bin 200"])
        }
    }

    @Test func aStaleEntryIsRevalidatedWithA304AndTheStoredBodyAnswers() async throws {
        try await withCacheNginx { nginx in
            let directory = try scratch()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let url = nginx.url("/stale/1k.bin")
            _ = try await asi(url, cache: directory + "/cache")
            let second = try await asi(url, cache: directory + "/cache", ["-i"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.output.hasPrefix("HTTP/1.1 200"), "the stored status answers, not the 304")
            #expect(second.stdout.suffix(1024) == NginxPeer.oneKiB[...])
            #expect(second.stderr.contains("* cache: revalidated (304)"), "\(second.stderr)")
            #expect(second.stderr.contains("> If-None-Match: "), "-v shows the conditional request as sent")
            #expect(second.stderr.contains("< HTTP/1.1 304"), "and the 304, before the stored head")
            #expect(nginx.accessLog == ["GET /stale/1k.bin 200", "GET /stale/1k.bin 304"])
        }
    }

    @Test func aGzipStaticBodyIsStoredDecodedAndARevalidatedHitIsServedWithoutContentEncoding() async throws {
        try await withCacheNginx { nginx in
            let directory = try scratch()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let url = nginx.url("/gz/text.txt")
            let first = try await asi(url, cache: directory + "/cache", ["-i"])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.output.lowercased().contains("content-encoding: gzip"), "nginx did not send the .gz file")
            #expect(first.stdout.suffix(CacheNginxPeer.gzipText.count) == CacheNginxPeer.gzipText[...])
            let entries = directory + "/cache/entries"
            let bodies = try FileManager.default.contentsOfDirectory(atPath: entries).filter { $0.hasSuffix(".body") }
            #expect(bodies.count == 1)
            for body in bodies {
                let stored = FileManager.default.contents(atPath: entries + "/" + body).map { Array($0) }
                #expect(stored == CacheNginxPeer.gzipText, "the body file does not hold the decoded bytes")
            }
            let second = try await asi(url, cache: directory + "/cache", ["-i"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stderr.contains("* cache: revalidated (304)"), "\(second.stderr)")
            #expect(!second.output.lowercased().contains("content-encoding"), "\(second.output)")
            #expect(second.output.lowercased().contains("content-length: \(CacheNginxPeer.gzipText.count)"))
            #expect(second.stdout.suffix(CacheNginxPeer.gzipText.count) == CacheNginxPeer.gzipText[...])
            #expect(nginx.accessLog == ["GET /gz/text.txt 200", "GET /gz/text.txt 304"])
        }
    }

    @Test func fallbackAnswersFromTheCacheWithTheServerStopped() async throws {
        try await withCacheNginx { nginx in
            let directory = try scratch()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let url = nginx.url("/stale/1k.bin")
            _ = try await asi(url, cache: directory + "/cache")
            nginx.stopServer()
            let refused = try await asi(url, cache: directory + "/cache")
            #expect(refused.status == 7, "without fallback the failure stands: \(refused.stderr)")
            let fallback = try await asi(url, cache: directory + "/cache", ["--cache-policy", "fallback"])
            #expect(fallback.status == 0 && fallback.stdout == NginxPeer.oneKiB, "\(fallback.stderr)")
            #expect(fallback.stderr.contains("* cache: fallback"), "\(fallback.stderr)")
        }
    }

    @Test func dontLoadAndCacheSecondsNeverAskTheServer() async throws {
        try await withCacheNginx { nginx in
            let directory = try scratch()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let cache = directory + "/cache"
            let missing = try await asi(nginx.url("/fresh/1k.bin"), cache: cache, ["-i", "--cache-policy", "dont-load"])
            #expect(missing.output.hasPrefix("HTTP/1.1 504"), "\(missing.output)")
            #expect(missing.stderr.contains("* cache: not cached"), "\(missing.stderr)")
            // max-age=0 from nginx, but --cache-seconds keeps the entry fresh.
            let url = nginx.url("/stale/1k.bin")
            _ = try await asi(url, cache: cache, ["--cache-seconds", "600"])
            let hit = try await asi(url, cache: cache)
            #expect(hit.stderr.contains("* cache: hit"), "\(hit.stderr)")
            let stale = try await asi(url, cache: cache, ["--cache-policy", "only-if-cached,no-write"])
            #expect(stale.stdout == NginxPeer.oneKiB && stale.stderr.contains("* cache: hit"))
            #expect(nginx.accessLog == ["GET /stale/1k.bin 200"])
        }
    }

    @Test func aRunKilledWhileStoringLeavesNothingThatDontLoadCouldServe() async throws {
        try await withCacheNginx { nginx in
            let directory = try scratch()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let cache = directory + "/cache"
            let url = nginx.url("/slow/512k.bin")
            // X-Crawl: after 256 KiB nginx slows to 4 KiB/s, so however late this test is scheduled, asi is still
            // storing the body when it is killed.
            let left = try await ASICommandCacheTests.killMidWrite(
                url: url, cache: cache, once: 200_000, arguments: ["-H", "X-Crawl: 1"])
            #expect(!left.isEmpty, "the run was not killed in the middle of storing the body")
            let offline = try await asi(url, cache: cache, ["-i", "--cache-policy", "dont-load"])
            #expect(offline.output.hasPrefix("HTTP/1.1 504"), "a half-stored body must not answer: \(offline.output)")
            #expect(offline.stderr.contains("* cache: not cached"), "\(offline.stderr)")
            // only-if-cached (ASI's OnlyLoadIfNotCached) finds nothing stored either, so it loads the whole body.
            let loaded = try await asi(url, cache: cache, ["--cache-policy", "only-if-cached"])
            #expect(loaded.stdout == CacheNginxPeer.slowBody && loaded.stderr.contains("* cache: miss"))
        }
    }

    @Test func anUnknownPolicyNameIsAUsageError() async throws {
        let run = try await ASICommandRun.run(["--cache", "/tmp/unused", "--cache-policy", "sometimes", "http://a/"])
        #expect(run.status == 2, "\(run.stderr)")
    }
}
