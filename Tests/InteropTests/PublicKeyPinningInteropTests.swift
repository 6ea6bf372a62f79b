import FoundationEssentials
import HTTPAuthentication
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import TestSupport
import Testing

/// Public-key pinning in `POSIXTransport` against real TLS peers: nginx as the origin and squid's TLS port as an
/// HTTPS proxy. Pins come from the request's `TLSOptions`, from the transport's per-host pins, and from the proxy's
/// `TLSOptions`; the expected pins are computed by the openssl CLI from the peers' keys.
@Suite("Public-key pinning against nginx and squid", .enabled(if: NginxPeer.shouldRun))
struct PublicKeyPinningInteropTests {
    /// A pin of 32 bytes that matches no key.
    static let otherPin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()

    static func request(_ url: URL, ca: String, pins: String? = nil) throws -> Request {
        var request = Request(url: url)
        request.options.timeout = generousTimeout
        request.options.tls = TLSOptions(trustedCAFile: ca,
                                         pinnedPublicKeys: try pins.map { try PublicKeyPins(curlPinnedPublicKey: $0) })
        return request
    }

    @Test func aMatchingPinPassesAndAMismatchFails() async throws {
        try await withNginx { nginx in
            let certificates = nginx.certificates
            let pin = try await TrustMatrixCertificates.pin(ofKey: certificates.serverKeyPath)
            let client = Client(transport: .posix())
            let url = nginx.url("/hello.txt", on: .tls)
            let pins = "\(Self.otherPin);\(pin)"
            let good = try await client.send(try Self.request(url, ca: certificates.caPath, pins: pins))
            #expect(good.status == .ok)
            #expect(good.text() == "hello\n")
            let error = await #expect(throws: ClientError.self) {
                _ = try await client.send(try Self.request(url, ca: certificates.caPath, pins: Self.otherPin))
            }
            #expect(error?.code == .publicKeyPinMismatch)
            #expect(error?.message.contains(pin) == true, "the message names the key's pin: \(error?.message ?? "")")
            // Validation first: a pinned key does not make an untrusted chain acceptable.
            let untrusted = await #expect(throws: ClientError.self) {
                _ = try await client.send(try Self.request(url, ca: "/etc/ssl/certs/ca-certificates.crt", pins: pin))
            }
            #expect(untrusted?.code == .certificateInvalid)
            try await client.shutdown()
        }
    }

    @Test func thePinsAreCheckedWithValidationOff() async throws {
        try await withNginx { nginx in
            let client = Client(transport: .posix())
            var request = Request(url: nginx.url("/hello.txt", on: .wrongName))
            request.options.timeout = generousTimeout
            request.options.tls = TLSOptions(validatesCertificate: false,
                                             pinnedPublicKeys: try PublicKeyPins(curlPinnedPublicKey: Self.otherPin))
            let error = await #expect(throws: ClientError.self) { _ = try await client.send(request) }
            #expect(error?.code == .publicKeyPinMismatch)
            try await client.shutdown()
        }
    }

    @Test func perHostPinsInTheTransportApplyToEveryRequestToThatHost() async throws {
        try await withNginx { nginx in
            let certificates = nginx.certificates
            let pin = try await TrustMatrixCertificates.pin(ofKey: certificates.serverKeyPath)
            let url = nginx.url("/hello.txt", on: .tls)
            let pinned = Client(transport: .posix(.init(pinnedPublicKeys: [
                "LOCALHOST.": try PublicKeyPins(curlPinnedPublicKey: pin)])))
            #expect(try await pinned.send(try Self.request(url, ca: certificates.caPath)).status == .ok)
            let misPinned = Client(transport: .posix(.init(pinnedPublicKeys: [
                url.host()!: try PublicKeyPins(curlPinnedPublicKey: Self.otherPin)])))
            let error = await #expect(throws: ClientError.self) {
                _ = try await misPinned.send(try Self.request(url, ca: certificates.caPath))
            }
            #expect(error?.code == .publicKeyPinMismatch)
            // A request's own pins and the host's must both match.
            let both = await #expect(throws: ClientError.self) {
                _ = try await pinned.send(try Self.request(url, ca: certificates.caPath, pins: Self.otherPin))
            }
            #expect(both?.code == .publicKeyPinMismatch)
            try await pinned.shutdown()
            try await misPinned.shutdown()
        }
    }

    @Test(.enabled(if: SquidPeer.shouldRun))
    func anHTTPSProxysKeyIsPinnedToo() async throws {
        try await withNginx { nginx in
            try await withSquid(tls: nginx.certificates) { squid in
                let route = try #require(squid.httpsRoute())
                let pin = try await TrustMatrixCertificates.pin(ofKey: nginx.certificates.serverKeyPath)
                func client(_ pins: String) throws -> Client {
                    var proxyTLS = TLSOptions(trustedCAFile: nginx.certificates.caPath)
                    proxyTLS.pinnedPublicKeys = try PublicKeyPins(curlPinnedPublicKey: pins)
                    let configuration = POSIXTransport.Configuration(
                        proxyResolver: ScriptedProxyResolver { _ in [route] }, proxyTLS: proxyTLS)
                    return Client(transport: .posix(configuration))
                }
                var request = Request(url: nginx.url("/hello.txt"))
                request.options.timeout = generousTimeout
                request.options.proxyAuthenticationScheme = AuthenticationScheme("Basic")
                request.options.proxyCredential = Credential(user: SquidPeer.user, password: SquidPeer.password)
                let good = try client(pin)
                #expect(try await good.send(request).status == .ok, "\(squid.accessLog)")
                let bad = try client(Self.otherPin)
                let error = await #expect(throws: ClientError.self) { _ = try await bad.send(request) }
                #expect(error?.code == .publicKeyPinMismatch)
                try await good.shutdown()
                try await bad.shutdown()
            }
        }
    }
}
