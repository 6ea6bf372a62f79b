import FoundationEssentials
import HTTPCore
import Testing

/// Every public value type crosses into a detached task (swift-log's TestSendable pattern); this file fails to
/// compile if one stops being Sendable.
@Suite struct SendableTests {
    @Test func publicTypesAreSendable() async throws {
        let request = Request(url: URL(string: "http://a.example/")!, body: .string("x"))
        let response = Response(status: .ok, body: ResponseBody(bytes: [1]))
        let values: (Request, RequestOptions, RequestBody, Response, ResponseBody, Cookie, Credential,
                     CredentialScope, CacheEntry, ProgressEvent, ClientError, TLSOptions, ProxyRoute,
                     HTTPVersion, RequestID) = (
            request, RequestOptions(), RequestBody.bytes([1]), response, response.body,
            Cookie(name: "a", value: "b", domain: "a.example"), Credential(user: "u", password: "p"),
            CredentialScope(scheme: "http", host: "a", port: 80),
            CacheEntry(head: CachedResponseHead(status: .ok, headerFields: [:], storedAt: Date(), expiresAt: nil,
                                                storagePolicy: .permanent),
                       body: InMemoryCachedBody([1])),
            ProgressEvent(requestID: .next(), direction: .upload, completedBytes: 0, expectedBytes: nil),
            ClientError(.timedOut), TLSOptions(), ProxyRoute.direct, HTTPVersion.http1_1, RequestID.next())
        let url = await Task.detached { values.0.url }.value
        #expect(url.host() == "a.example")
        let pins = try PublicKeyPins(sha256Digests: [Array(repeating: 1, count: 32)])
        #expect(await Task.detached { pins.sha256Digests.count }.value == 1)
    }

    @Test func proxySettingsAreSendable() async throws {
        let values = (try EnvironmentProxyResolver(environment: ["http_proxy": "p:1"]),
                      FixedProxyResolver(host: "p", port: 1), NoProxyList("a.example"))
        let routes = await Task.detached { (values.0.route(for: URL(string: "http://o/")!), values.1.route) }.value
        #expect(routes.0 == routes.1)
        #expect(await Task.detached { values.2.matches(host: "a.example", port: 80) }.value)
    }

    @Test func retryAndHSTSValuesAreSendable() async {
        var storage = HSTSStorage()
        storage.update(HSTSEntry(host: "a.example", includesSubdomains: true, expires: .distantFuture), at: Date())
        let values = (RetryPolicy(), storage)
        let answer = await Task.detached { (values.0.maxAttempts, values.1.entry(covering: "b.a.example", at: Date())) }
            .value
        #expect(answer.0 == 3 && answer.1?.host == "a.example")
    }

    @Test func bandwidthTransferIsSendable() async {
        let transfer = BandwidthTransfer(requestID: .next(), direction: .download, limit: 14_800)
        let limit = await Task.detached { transfer.limit }.value
        #expect(limit == 14_800)
    }

    @Test func requestIDsAreUnique() {
        let ids = (0..<1000).map { _ in RequestID.next() }
        #expect(Set(ids).count == 1000)
    }
}
