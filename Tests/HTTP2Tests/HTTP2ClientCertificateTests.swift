import FoundationEssentials
import HTTP2
import HTTPCore
import SocketTransport
import TestSupport
import Testing

/// Client certificates over HTTP/2: nginx asks for one (`ssl_verify_client on`) on an h2 server, and the identity
/// presented in the TLS handshake that chose `h2` is the one nginx names; without one nginx answers `400` over h2.
@Suite("HTTP/2 with client certificates against nginx", .enabled(if: HTTP2NginxPeer.shouldRun))
struct HTTP2ClientCertificateTests {
    private func whoami(_ nginx: HTTP2NginxPeer, identity: ClientIdentity?) async throws -> (Response, String) {
        let transport = http2Transport()
        var request = h2Request(nginx.url("/whoami", on: .clientAuth), certificates: nginx.certificates)
        request.options.tls.clientIdentity = identity
        let (response, body) = try await fetch(transport, request)
        try await transport.shutdown()
        return (response, String(decoding: body, as: UTF8.self))
    }

    @Test func aPEMIdentityIsPresentedOverH2() async throws {
        try await withHTTP2Nginx { nginx in
            let certs = nginx.certificates
            let identity = ClientIdentity(
                .pem(certificatePath: certs.clientCertificatePath, privateKeyPath: certs.clientKeyPath))
            let (response, subject) = try await whoami(nginx, identity: identity)
            #expect(response.version == .http2)
            #expect(response.status == .ok)
            #expect(subject == certs.clientSubject)
        }
    }

    @Test func aPKCS12IdentityIsPresentedOverH2() async throws {
        try await withHTTP2Nginx { nginx in
            let certs = nginx.certificates
            let identity = ClientIdentity(.pkcs12(path: certs.clientPKCS12Path), password: certs.password)
            let (response, subject) = try await whoami(nginx, identity: identity)
            #expect(response.version == .http2)
            #expect(subject == certs.clientSubject)
        }
    }

    @Test func withoutAnIdentityNginxAnswers400OverH2() async throws {
        try await withHTTP2Nginx { nginx in
            let (response, _) = try await whoami(nginx, identity: nil)
            #expect(response.version == .http2)
            #expect(response.status == .badRequest)
        }
    }
}
