import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HSTSFile
import SocketTransport
import TestSupport
import Testing

/// The pipeline's HSTS steps with the real transport against nginx sending `Strict-Transport-Security` over TLS.
@Suite(.enabled(if: NginxPeer.shouldRun), .serialized)
struct HSTSNginxTests {
    static func request(_ url: String, ca: String, validates: Bool = true) -> Request {
        var request = Request(url: URL(string: url)!)
        request.options.tls = TLSOptions(validatesCertificate: validates, trustedCAFile: validates ? ca : nil)
        // Generous, as NginxInteropTests': in a full parallel run the TLS handshake stalled past the 10 s default.
        request.options.timeout = generousTimeout
        request.options.connectTimeout = .seconds(60)
        return request
    }

    @Test func aValidatedResponseTeachesTheStoreAndLaterHttpGoesOutAsHttps() async throws {
        try await withHSTSNginx { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let store = try HSTSFileStore(path: directory + "/hsts.txt")
            let client = Client(transport: .posix(), hsts: store)
            let ca = nginx.certificates.caPath
            let plain = "http://localhost:\(nginx.tlsPort)/page"

            let before = try await client.send(Self.request(plain, ca: ca))
            #expect(before.status.code == 400, "not yet known: plain HTTP reaches the TLS port")
            let learned = try await client.send(Self.request("https://localhost:\(nginx.tlsPort)/sts", ca: ca))
            #expect(learned.text() == "sts\n")
            #expect(await store.entry(covering: "sub.localhost")?.includesSubdomains == true)

            let upgraded = try await client.send(Self.request(plain, ca: ca))
            #expect(upgraded.text() == "secure\n")
            #expect(upgraded.info.finalRequest.url.absoluteString == "https://localhost:\(nginx.tlsPort)/page")

            _ = try await client.send(Self.request("https://localhost:\(nginx.tlsPort)/clear", ca: ca))
            #expect(store.isKnownEmpty, "max-age=0 removes the host")
            try await client.shutdown()
        }
    }

    @Test func aResponseWithoutCertificateValidationTeachesNothing() async throws {
        try await withHSTSNginx { nginx in
            let store = MemoryHSTSStore()
            let client = Client(transport: .posix(), hsts: store)
            let insecure = Self.request("https://localhost:\(nginx.tlsPort)/sts", ca: "", validates: false)
            let insecureResponse = try await client.send(insecure)
            #expect(insecureResponse.text() == "sts\n")
            #expect(store.isKnownEmpty)
            let overIP = Self.request("https://127.0.0.1:\(nginx.tlsPort)/sts", ca: nginx.certificates.caPath)
            let overIPResponse = try await client.send(overIP)
            #expect(overIPResponse.text() == "sts\n")
            #expect(store.isKnownEmpty, "IP literals are never HSTS hosts")
            try await client.shutdown()
        }
    }
}
