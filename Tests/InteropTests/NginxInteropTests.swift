import FoundationEssentials
import HTTPCore
import HTTPTesting
import Logging
import SocketTransport
import TestSupport
import Testing

/// `POSIXTransport` against a real nginx: plain HTTP, TLS validation (trusted CA, system store, wrong host name,
/// validation off), client certificates (PEM, encrypted PEM, PKCS#12) and keep-alive.
///
/// Skipped when nginx is not installed, unless `ASI_REQUIRE_PEERS=1` (CI), which turns that into a failure.
@Suite("nginx interop", .enabled(if: NginxPeer.shouldRun))
struct NginxInteropTests {
    // MARK: Plain HTTP and TLS basics

    @Test func plainGetReturnsTheFile() async throws {
        try await withNginx { nginx in
            let (response, body) = try await fetch(nginx.url("/hello.txt"))
            #expect(response.status == .ok)
            #expect(response.headerFields[.contentType] == "text/plain")
            #expect(body == Array("hello\n".utf8))
        }
    }

    @Test(arguments: [NginxPeer.Server.plain, .tls])
    func oneKiBFileArrivesIntactWithProgress(over server: NginxPeer.Server) async throws {
        try await withNginx { nginx in
            let progress = RecordingProgressSink()
            let tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
            let (response, body) = try await fetch(nginx.url("/1k.bin", on: server), tls: tls, progress: progress)
            #expect(response.status == .ok)
            #expect(response.body.expectedLength == 1024)
            #expect(body == NginxPeer.oneKiB)
            let downloaded = progress.events(.download).map(\.completedBytes)
            #expect(downloaded.last == 1024)
            #expect(downloaded == downloaded.sorted(), "progress went backwards: \(downloaded)")
        }
    }

    @Test func missingFileIsA404NotAnError() async throws {
        try await withNginx { nginx in
            let (response, _) = try await fetch(nginx.url("/missing.txt"))
            #expect(response.status == .notFound)
        }
    }

    // MARK: Server certificate validation

    @Test func httpsWithTheTestCATrustedSucceeds() async throws {
        try await withNginx { nginx in
            let tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
            let (response, body) = try await fetch(nginx.url("/hello.txt", on: .tls), tls: tls)
            #expect(response.status == .ok)
            #expect(body == Array("hello\n".utf8))
        }
    }

    @Test func httpsToAnIPAddressMatchesTheIPSubjectAltName() async throws {
        try await withNginx { nginx in
            let tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
            let (response, _) = try await fetch(nginx.url("/hello.txt", on: .tls, host: "127.0.0.1"), tls: tls)
            #expect(response.status == .ok)
        }
    }

    @Test func httpsWithTheSystemStoreRejectsTheTestCA() async throws {
        try await withNginx { nginx in
            let error = await #expect(throws: ClientError.self) {
                try await fetch(nginx.url("/hello.txt", on: .tls))
            }
            #expect(error?.code == .certificateInvalid, "\(String(describing: error))")
        }
    }

    @Test func aCertificateForAnotherNameIsRejected() async throws {
        try await withNginx { nginx in
            let tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
            let error = await #expect(throws: ClientError.self) {
                try await fetch(nginx.url("/hello.txt", on: .wrongName), tls: tls)
            }
            #expect(error?.code == .certificateInvalid, "\(String(describing: error))")
        }
    }

    @Test(arguments: [NginxPeer.Server.tls, .wrongName])
    func turningValidationOffAcceptsAnyCertificate(server: NginxPeer.Server) async throws {
        try await withNginx { nginx in
            let tls = TLSOptions(validatesCertificate: false)
            let (response, body) = try await fetch(nginx.url("/hello.txt", on: server), tls: tls)
            #expect(response.status == .ok)
            #expect(body == Array("hello\n".utf8))
        }
    }

    // MARK: Client certificates

    @Test func pemClientIdentityIsPresented() async throws {
        try await withNginx { nginx in
            let certs = nginx.certificates
            let identity = ClientIdentity(
                .pem(certificatePath: certs.clientCertificatePath, privateKeyPath: certs.clientKeyPath))
            let (response, body) = try await fetchClientAuth(nginx, identity: identity)
            #expect(response.status == .ok)
            #expect(String(decoding: body, as: UTF8.self) == certs.clientSubject)
        }
    }

    @Test func encryptedPEMKeyIsUnlockedWithThePassword() async throws {
        try await withNginx { nginx in
            let certs = nginx.certificates
            let identity = ClientIdentity(
                .pem(certificatePath: certs.clientCertificatePath, privateKeyPath: certs.clientEncryptedKeyPath),
                password: certs.password
            )
            let (response, body) = try await fetchClientAuth(nginx, identity: identity)
            #expect(response.status == .ok)
            #expect(String(decoding: body, as: UTF8.self) == certs.clientSubject)
        }
    }

    @Test func pkcs12ClientIdentityIsPresented() async throws {
        try await withNginx { nginx in
            let certs = nginx.certificates
            let identity = ClientIdentity(.pkcs12(path: certs.clientPKCS12Path), password: certs.password)
            let (response, body) = try await fetchClientAuth(nginx, identity: identity)
            #expect(response.status == .ok)
            #expect(String(decoding: body, as: UTF8.self) == certs.clientSubject)
        }
    }

    @Test func withoutAClientIdentityNginxAnswers400() async throws {
        try await withNginx { nginx in
            let (response, body) = try await fetchClientAuth(nginx, identity: nil)
            #expect(response.status == .badRequest)
            #expect(String(decoding: body, as: UTF8.self).contains("No required SSL certificate was sent"))
        }
    }

    // MARK: Keep-alive

    @Test(arguments: [NginxPeer.Server.plain, .tls])
    func hundredSequentialRequestsShareOneConnection(over server: NginxPeer.Server) async throws {
        try await withNginx { nginx in
            let tls = TLSOptions(trustedCAFile: nginx.certificates.caPath)
            try await withTransport { transport in
                var connections: Set<String> = []
                var connectionIDs: Set<UInt64?> = []
                for expected in 1...100 {
                    let (response, body) = try await fetch(nginx.url("/conn", on: server), tls: tls, with: transport)
                    try #require(response.status == .ok)
                    // "$connection $connection_requests", for example "3 17".
                    let words = String(decoding: body, as: UTF8.self).split(separator: " ")
                    try #require(words.count == 2, "unexpected body \(body)")
                    connections.insert(String(words[0]))
                    connectionIDs.insert(response.connectionID)
                    #expect(Int(words[1]) == expected, "request \(expected) was number \(words[1]) on its connection")
                }
                #expect(connections.count == 1, "nginx saw connections \(connections.sorted())")
                #expect(connectionIDs.count == 1, "the transport reported connections \(connectionIDs)")
            }
        }
    }
}

// MARK: - Helpers

/// Sends a `GET` on a fresh transport (or `transport`) and collects the body.
private func fetch(
    _ url: URL,
    tls: TLSOptions = TLSOptions(),
    progress: any ProgressSink = RecordingProgressSink(),
    with transport: POSIXTransport? = nil
) async throws -> (Response, [UInt8]) {
    var request = Request(url: url)
    request.options.tls = tls
    // Generous: on a busy machine a TLS handshake can stall for longer than the 10 s default.
    request.options.timeout = generousTimeout
    request.options.connectTimeout = .seconds(60)
    let context = RequestContext(progress: progress, logger: Logger(label: "NginxInteropTests"))
    if let transport {
        let response = try await transport.send(request, context: context)
        return (response, try await response.body.collect(upTo: 1 << 20))
    }
    return try await withTransport { transport in
        let response = try await transport.send(request, context: context)
        return (response, try await response.body.collect(upTo: 1 << 20))
    }
}

/// Sends a `GET` to the client-certificate server, trusting the test CA.
private func fetchClientAuth(_ nginx: NginxPeer, identity: ClientIdentity?) async throws -> (Response, [UInt8]) {
    let tls = TLSOptions(trustedCAFile: nginx.certificates.caPath, clientIdentity: identity)
    return try await fetch(nginx.url("/", on: .clientAuth), tls: tls)
}

/// Runs `body` with a new transport and shuts the transport down afterwards, also when `body` throws.
private func withTransport<Result>(_ body: (POSIXTransport) async throws -> Result) async throws -> Result {
    let transport = POSIXTransport.posix()
    do {
        let result = try await body(transport)
        try await transport.shutdown()
        return result
    } catch {
        try? await transport.shutdown()
        throw error
    }
}
