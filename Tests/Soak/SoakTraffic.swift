import FoundationEssentials
import HTTPCore
import HTTPPipeline

/// The mixed traffic of the soak: one request of each kind, sent through one long-lived `Client`.
///
/// Servers (``SoakServers``): nginx for keep-alive and closing answers, TLS, gzip, a redirect, a Basic challenge,
/// cookies, cacheable answers, a throttled body and a slow one to cancel; a silent listener for timeouts; and
/// tinyproxy as the proxy, when installed.
struct SoakTraffic: Sendable {
    let plain: URL
    let tls: URL
    let stall: URL
    let caFile: String
    let proxy: ProxyRoute?

    /// How many kinds of request ``send(_:kind:)`` knows.
    static let kinds = 12

    /// Sends one request of a kind and checks its outcome.
    /// - Returns: A short failure text, or `nil` when the outcome was the expected one.
    func send(_ client: Client, kind: Int) async -> String? {
        func request(_ path: String) -> Request { Request(url: plain.appending(path: path)) }
        do {
            switch kind {
            case 0:
                return try await expect(client.send(request("/hello")), "hello")
            case 1:
                var closing = request("/close")
                closing.options.persistentConnection = false
                return try await expect(client.send(closing), "bye")
            case 2:
                var secure = Request(url: tls.appending(path: "/1k.bin"))
                secure.options.tls = TLSOptions(trustedCAFile: caFile)
                return try await count(client.send(secure), 1024)
            case 3:
                return try await count(client.send(request("/gzip.txt")), 20_000)
            case 4:
                return try await expect(client.send(request("/redirect")), "hello")
            case 5:
                var challenged = request("/auth/welcome.txt")
                challenged.options.credential = Credential(user: "soak", password: "secret")
                challenged.options.usesCredentialStore = false  // answer the challenge every time
                challenged.options.presentsCredentialsBeforeChallenge = false
                return try await expect(client.send(challenged), "welcome")
            case 6:
                return try await expect(client.send(request("/cookie")), "cookie")
            case 7:
                return try await count(client.send(request("/cached.bin")), 4096)
            case 8:
                guard let proxy else { return nil }
                var proxied = request("/hello")
                proxied.options.proxyResolver = FixedProxyResolver(proxy)
                return try await expect(client.send(proxied), "hello")
            case 9:
                var throttled = request("/bulk.bin")
                throttled.options.maxBandwidthPerSecond = 400_000
                return try await count(client.send(throttled), 60_000)
            case 10:
                // A cancellation mid-body: nginx sends 2 kB a second of a 64 kB body.
                let task = Task { try await client.send(request("/slow.bin")) }
                try await Task.sleep(for: .milliseconds(200))
                task.cancel()
                _ = try? await task.value
                return nil
            default:
                var stalled = Request(url: stall.appending(path: "/stall"))
                stalled.options.timeout = .milliseconds(300)
                do {
                    _ = try await client.send(stalled)
                    return "the stall did not time out"
                } catch let error as ClientError where error.code == .timedOut {
                    return nil
                }
            }
        } catch {
            return "kind \(kind): \(error)"
        }
    }

    private func expect(_ response: ClientResponse, _ text: String) -> String? {
        response.text() == text ? nil : "expected \(text), got \(response.status.code) \(response.text().prefix(40))"
    }

    private func count(_ response: ClientResponse, _ bytes: Int) -> String? {
        response.body.count == bytes
            ? nil : "\(response.url.path()): \(response.status.code), \(response.body.count) bytes"
    }
}
