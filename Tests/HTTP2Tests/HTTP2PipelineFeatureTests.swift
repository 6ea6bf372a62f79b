import FoundationEssentials
import HTTP2
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import TestSupport
import Testing

/// The pipeline's features over HTTP/2, through a `Client` against a real nginx speaking h2: a redirect to an
/// HTTP/1.1-only origin and back, cookies, Basic, cache revalidation, progress and a resumed download. nginx's
/// access log (`"$request"` names the protocol) shows which hop went over which protocol.
@Suite("HTTP/2 under the pipeline's features", .enabled(if: HTTP2NginxPeer.shouldRun))
struct HTTP2PipelineFeatureTests {
    /// The logged lines whose request line holds `path`, once at least `count` are logged.
    private func logged(_ nginx: HTTP2NginxPeer, _ path: String, count: Int) async -> [String] {
        _ = await eventually { nginx.accessLog.filter { $0.contains(path) }.count >= count }
        return nginx.accessLog.filter { $0.contains(path) }
    }

    @Test func aRedirectToAnHTTP1OnlyOriginAndBack() async throws {
        try await withHTTP2Nginx { nginx in
            let client = Client(transport: http2Transport())
            let response = try await client.send(h2Request(nginx.url("/to-http1"), certificates: nginx.certificates))
            #expect(response.status == .ok)
            #expect(response.body == NginxPeer.oneKiB)
            #expect(response.head.version == .http2)
            #expect(response.info.redirectCount == 2)
            #expect(response.url == nginx.url("/1k.bin?back"))
            #expect(await logged(nginx, "/to-http1 HTTP/2.0", count: 1).count == 1)
            #expect(await logged(nginx, "/to-h2 HTTP/1.1", count: 1).count == 1)
            #expect(await logged(nginx, "/1k.bin?back HTTP/2.0", count: 1).count == 1)
            try await client.shutdown()
        }
    }

    @Test func aCookieSetOverH2IsSentOverH2AndHTTP1() async throws {
        try await withHTTP2Nginx { nginx in
            let client = Client(transport: http2Transport())
            let set = try await client.send(h2Request(nginx.url("/set-cookie"), certificates: nginx.certificates))
            #expect(set.head.version == .http2)
            #expect(set.info.responseCookies.map(\.name) == ["h2"])
            let overH2 = try await client.send(h2Request(nginx.url("/echo-cookie"), certificates: nginx.certificates))
            #expect(overH2.head.version == .http2)
            #expect(String(decoding: overH2.body, as: UTF8.self) == "h2=over-h2")
            // Cookies do not depend on the port (RFC 6265 §8.5): the HTTP/1.1-only server on localhost gets it too.
            let overHTTP1 = try await client.send(
                h2Request(nginx.url("/echo-cookie", on: .http1), certificates: nginx.certificates))
            #expect(overHTTP1.head.version == .http1_1)
            #expect(String(decoding: overHTTP1.body, as: UTF8.self) == "h2=over-h2")
            try await client.shutdown()
        }
    }

    /// Basic answers nginx's challenge over h2, and the next request in the realm goes with the credential up
    /// front; a wrong password ends in the typed error, over h2 too.
    @Test func basicAnswersAChallengeOverH2() async throws {
        try await withHTTP2Nginx { nginx in
            let client = Client(transport: http2Transport())
            var request = h2Request(nginx.url("/basic/1k.bin"), certificates: nginx.certificates)
            request.options.credential = Credential(
                user: HTTP2NginxPeer.basicUser, password: HTTP2NginxPeer.basicPassword)
            let first = try await client.send(request)
            #expect(first.status == .ok)
            #expect(first.head.version == .http2)
            #expect(first.body == NginxPeer.oneKiB)
            let second = try await client.send(
                h2Request(nginx.url("/basic/1k.bin?again"), certificates: nginx.certificates))
            #expect(second.status == .ok)
            let lines = await logged(nginx, "/basic/", count: 3)
            #expect(lines.allSatisfy { $0.contains("HTTP/2.0") }, "\(lines)")
            #expect(lines.map { $0.split(separator: " ")[1] } == ["401", "200", "200"], "\(lines)")

            var wrong = h2Request(nginx.url("/basic/1k.bin?wrong"), certificates: nginx.certificates)
            wrong.options.credential = Credential(user: HTTP2NginxPeer.basicUser, password: "not it")
            let other = Client(transport: http2Transport())
            await #expect {
                _ = try await other.send(wrong)
            } throws: { ($0 as? ClientError)?.code == .authenticationFailed }
            try await other.shutdown()
            try await client.shutdown()
        }
    }

    @Test func aCachedResponseIsRevalidatedOverH2() async throws {
        try await withHTTP2Nginx { nginx in
            let client = Client(transport: http2Transport(), cache: MemoryCacheStore())
            let request = h2Request(nginx.url("/revalidate.bin"), certificates: nginx.certificates)
            let first = try await client.send(request)
            #expect(first.head.version == .http2)
            #expect(first.info.cacheOutcome == .miss)
            let second = try await client.send(request)
            #expect(second.info.cacheOutcome == .revalidated)
            #expect(second.status == .ok)
            #expect(second.body == NginxPeer.oneKiB)
            let lines = await logged(nginx, "/revalidate.bin HTTP/2.0", count: 2)
            #expect(lines.map { $0.split(separator: " ")[1] } == ["200", "304"], "nginx saw: \(lines)")
            try await client.shutdown()
        }
    }

    @Test func progressCountsEveryByteBothWays() async throws {
        try await withHTTP2Nginx { nginx in
            let client = Client(transport: http2Transport())
            let sink = RecordingProgressSink()
            var upload = h2Request(nginx.url("/uploads/progress.bin"), method: .put, body: twentyMiBBody(),
                                   certificates: nginx.certificates)
            upload.options.progress = sink
            let stored = try await client.send(upload)
            #expect(stored.status == .created)
            #expect(stored.head.version == .http2)
            let sent = sink.events(.upload)
            #expect(sent.last?.completedBytes == Int64(twentyMiBCount))
            #expect(sent.reduce(0) { $0 + $1.byteDelta } == Int64(twentyMiBCount))
            #expect(sent.count > 2, "20 MiB went out in \(sent.count) progress events")

            var download = h2Request(nginx.url("/uploads/progress.bin"), certificates: nginx.certificates)
            download.options.progress = sink
            let fetched = try await client.send(download)
            #expect(fetched.body.count == twentyMiBCount)
            let received = sink.events(.download)
            #expect(received.last?.completedBytes == Int64(twentyMiBCount))
            #expect(received.last?.expectedBytes == Int64(twentyMiBCount))
            #expect(received.reduce(0) { $0 + $1.byteDelta } == Int64(twentyMiBCount))
            #expect(zip(received, received.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
            try await client.shutdown()
        }
    }

    @Test func aDownloadResumesWithARangeOverH2() async throws {
        try await withHTTP2Nginx { nginx in
            let directory = try makeTemporaryDirectory(prefix: "asikit-h2-resume")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let destination = directory + "/big.bin"
            // The first 40 MiB of a download that broke off.
            var partial = Data(capacity: 40 << 20)
            for _ in 0..<40 { partial.append(contentsOf: HTTP2NginxPeer.bigBlock) }
            try partial.write(to: URL(filePath: destination + ".part"))
            let client = Client(transport: http2Transport())
            var request = h2Request(nginx.url("/big.bin"), certificates: nginx.certificates)
            request.options.download = DownloadOptions(
                destinationPath: destination, temporaryPath: destination + ".part", allowsResume: true)
            let response = try await client.send(request)
            #expect(response.status == .partialContent)
            #expect(response.head.version == .http2)
            #expect(response.headerFields[.contentRange] == "bytes \(40 << 20)-\(HTTP2NginxPeer.bigSize - 1)/"
                + "\(HTTP2NginxPeer.bigSize)")
            let file = try #require(readChecked(atPath: destination, matching: HTTP2NginxPeer.matchesBig))
            #expect(file.count == HTTP2NginxPeer.bigSize)
            #expect(file.intact, "the resumed file differs from /big.bin")
            #expect(!FileManager.default.fileExists(atPath: destination + ".part"))
            let lines = await logged(nginx, "/big.bin HTTP/2.0", count: 1)
            #expect(lines.map { $0.split(separator: " ")[1] } == ["206"], "nginx saw: \(lines)")
            try await client.shutdown()
        }
    }
}
