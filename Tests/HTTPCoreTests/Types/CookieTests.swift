import FoundationEssentials
import HTTPCore
import Testing

@Suite struct CookieMatchingTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: [
        // (domain, hostOnly, path, secure, url, expected)
        ("example.com", true, "/", false, "http://example.com/", true),
        ("example.com", true, "/", false, "http://www.example.com/", false),
        ("example.com", false, "/", false, "http://www.example.com/", true),
        ("example.com", false, "/", false, "http://badexample.com/", false),
        ("example.com", false, "/docs", false, "http://example.com/docs", true),
        ("example.com", false, "/docs", false, "http://example.com/docs/a", true),
        ("example.com", false, "/docs", false, "http://example.com/docsets", false),
        ("example.com", false, "/docs/", false, "http://example.com/docs/a", true),
        ("example.com", false, "/", true, "http://example.com/", false),
        ("example.com", false, "/", true, "https://example.com/", true),
        ("1.2.3.4", false, "/", false, "http://5.1.2.3.4/", false),
        ("example.com", true, "/", false, "http://EXAMPLE.com/", true),
    ])
    func matches(domain: String, hostOnly: Bool, path: String, secure: Bool, url: String, expected: Bool) {
        let cookie = Cookie(name: "n", value: "v", domain: domain, isHostOnly: hostOnly, path: path, isSecure: secure)
        #expect(cookie.matches(URL(string: url)!, at: Self.now) == expected)
    }

    @Test func expiredCookiesNeverMatch() {
        let cookie = Cookie(name: "n", value: "v", domain: "example.com", expires: Self.now)
        #expect(!cookie.matches(URL(string: "http://example.com/")!, at: Self.now))
        #expect(cookie.matches(URL(string: "http://example.com/")!, at: Self.now - 1))
    }

    @Test func leadingDotIsDropped() {
        #expect(Cookie(name: "n", value: "v", domain: ".Example.COM").domain == "example.com")
    }

    @Test func theDomainIsComparedLowerCasedAndKeepsItsSpellingForFiles() {
        var cookie = Cookie(name: "n", value: "v", domain: ".Example.COM", isHostOnly: false)
        #expect(cookie.domain == "example.com" && cookie.spelledDomain == "Example.COM")
        #expect(cookie.matches(URL(string: "http://www.example.com/")!, at: Self.now))
        #expect(cookie.identity == Cookie(name: "n", value: "v", domain: "example.com").identity)
        #expect(Cookie(name: "n", value: "v", domain: "example.com").spelledDomain == "example.com")
        cookie.domain = "example.org"
        #expect(cookie.spelledDomain == "example.org", "a spelling of another domain is dropped")
        cookie.spelledDomain = ".Other.ORG"
        #expect(cookie.domain == "other.org" && cookie.spelledDomain == "Other.ORG")
    }
}

@Suite struct RedactionTests {
    @Test func secretsNeverPrint() {
        let credential = Credential(user: "alice", password: "hunter2")
        #expect("\(credential)" == "<redacted>" && String(reflecting: credential) == "<redacted>")
        var dumped = ""
        dump(Credential.bearer("t0ken-s3cret"), to: &dumped)
        dump(credential, to: &dumped)
        #expect(!dumped.contains("hunter2") && !dumped.contains("t0ken-s3cret") && !dumped.contains("alice"))
        let identity = ClientIdentity(.pkcs12(path: "/tmp/id.p12"), password: "hunter2")
        #expect(!"\(identity)".contains("hunter2"))
        #expect(!"\(Cookie(name: "s", value: "hunter2", domain: "a"))".contains("hunter2"))
    }
}

@Suite struct ClientErrorTests {
    @Test(arguments: [
        (ClientError.Code.connectFailed, 1), (.nameResolutionFailed, 1), (.tlsHandshakeFailed, 1),
        (.certificateInvalid, 1), (.timedOut, 2), (.authenticationFailed, 3), (.cancelled, 4),
        (.invalidRequest, 5), (.storageFailed, 8), (.tooManyRedirects, 9), (.internalError, 10),
        (.compressionFailed, 11), (.emptyResponse, 1), (.uploadFailed, 6),
        (.incompleteBody, 1), (.sendFailed, 1), (.receiveFailed, 1),
    ])
    func mapsToASIErrorTypes(code: ClientError.Code, asi: Int) {
        #expect(code.asiErrorType == asi)
    }

    @Test func descriptionNamesCodeStageMessageAndCause() {
        let error = ClientError(.connectFailed, stage: .transport, message: "to 127.0.0.1:1",
                                underlying: SyscallError(errno: 111, operation: "connect"))
        #expect("\(error)" == "connectFailed (transport): to 127.0.0.1:1 [connect: Connection refused (errno 111)]")
        #expect(ClientError.Stage.middleware("Gzip").description == "middleware(Gzip)")
    }
}

@Suite struct ResponseBodyTests {
    @Test func collectEnforcesTheLimit() async throws {
        let body = ResponseBody(expectedLength: nil, source: BufferedBodySource([[1, 2], [3, 4]]))
        let error = await #expect(throws: ClientError.self) { try await body.collect(upTo: 3) }
        #expect(error?.code == .protocolViolation)
        #expect(try await ResponseBody(bytes: [1, 2, 3]).collect(upTo: 3) == [1, 2, 3])
    }

    @Test func statusLine() {
        #expect(Response(status: .notFound, version: .http1_0).statusLine == "HTTP/1.0 404 Not Found")
        #expect(HTTPVersion.http1_0 < .http1_1)
    }
}
