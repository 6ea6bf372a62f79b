import FoundationEssentials
import HTTPCore
@testable import HTTPPipeline
import HTTPTesting
import Testing

/// `Strict-Transport-Security` parsing and the pipeline's upgrade and record steps, with a scripted transport.
@Suite struct StrictTransportSecurityParserTests {
    @Test(arguments: [
        ("max-age=31536000", 31_536_000, false),
        ("max-age=0", 0, false),
        ("Max-Age=\"600\" ; INCLUDESUBDOMAINS", 600, true),
        ("includeSubDomains; max-age=60; preload", 60, true),
        (" ; max-age=60;; unknown=\"x;y\" ", 60, false),
        ("max-age=99999999999999999999", StrictTransportSecurity.maxAgeLimit, false),
    ])
    func validFields(value: String, maxAge: Int64, subdomains: Bool) {
        #expect(StrictTransportSecurity.parse(value) == .init(maxAge: maxAge, includesSubdomains: subdomains))
    }

    @Test(arguments: [
        "", "includeSubDomains", "max-age", "max-age=", "max-age=-1", "max-age=1.5", "max-age=ten",
        "max-age=1; max-age=2", "max-age=1; includeSubDomains; includesubdomains", "max-age=1; includeSubDomains=yes",
    ])
    func invalidFieldsAreIgnored(value: String) {
        #expect(StrictTransportSecurity.parse(value) == nil)
    }
}

@Suite struct HSTSPipelineTests {
    static func known(_ host: String, subdomains: Bool = false) -> MemoryHSTSStore {
        MemoryHSTSStore([HSTSEntry(host: host, includesSubdomains: subdomains, expires: Date().addingTimeInterval(60))])
    }

    @Test(arguments: [
        ("http://a.example/x?q=1", "https://a.example/x?q=1"),
        ("http://A.Example.:8080/x", "https://A.Example.:8080/x"),
        ("http://a.example:80/", "https://a.example:80/"),
        ("https://a.example/", "https://a.example/"),
        ("http://b.a.example/", "http://b.a.example/"),
        ("http://other.example/", "http://other.example/"),
    ])
    func onlyTheSchemeOfAKnownHostChanges(url: String, sent: String) async throws {
        let transport = ScriptedTransport { _, _ in .text("ok") }
        _ = try await Client(transport: transport, hsts: Self.known("a.example")).send(Request(url))
        #expect(transport.requests.map(\.url.absoluteString) == [sent])
    }

    @Test func subdomainsAreUpgradedOnlyWithIncludeSubDomains() async throws {
        let transport = ScriptedTransport { _, _ in .text("ok") }
        let client = Client(transport: transport, hsts: Self.known("a.example", subdomains: true))
        _ = try await client.send(Request("http://deep.b.a.example/"))
        _ = try await client.send(Request("http://xa.example/"))
        #expect(transport.requests.map(\.url.absoluteString) == ["https://deep.b.a.example/", "http://xa.example/"])
    }

    @Test func everyRedirectHopIsUpgradedBeforeItIsSent() async throws {
        let transport = ScriptedTransport { request, _ in
            request.url.path() == "/start" ? Response.redirect(302, to: "http://a.example:81/next") : .text("ok")
        }
        let response = try await Client(transport: transport, hsts: Self.known("a.example"))
            .send(Request("http://start.example/start"))
        let sent = transport.requests.map { $0.url.absoluteString }
        #expect(sent == ["http://start.example/start", "https://a.example:81/next"])
        #expect(response.info.finalRequest.url.scheme == "https")
    }

    @Test func theFieldIsRecordedOnlyFromValidatedHttpsResponsesOfHostNames() async throws {
        let transport = ScriptedTransport { _, _ in
            .text("ok", headerFields: fields([(.strictTransportSecurity, "max-age=60"),
                                              (.strictTransportSecurity, "max-age=0")]))
        }
        let store = MemoryHSTSStore()
        let client = Client(transport: transport, hsts: store)
        _ = try await client.send(Request("http://plain.example/"))
        _ = try await client.send(Request("https://127.0.0.1/"))
        _ = try await client.send(Request("https://[::1]/"))
        var insecure = Request("https://insecure.example/")
        insecure.options.tls.validatesCertificate = false
        _ = try await client.send(insecure)
        #expect(store.isKnownEmpty)
        _ = try await client.send(Request("https://Secure.Example./"))
        #expect(store.entries.map(\.host) == ["secure.example"], "the first field counts")
        _ = try await client.send(Request("http://secure.example/again"))
        #expect(transport.requests.last?.url.absoluteString == "https://secure.example/again")
    }

    @Test func maxAgeZeroForgetsTheHost() async throws {
        let transport = ScriptedTransport { _, _ in
            .text("ok", headerFields: fields([(.strictTransportSecurity, "max-age=0")]))
        }
        let store = Self.known("a.example")
        _ = try await Client(transport: transport, hsts: store).send(Request("https://a.example/"))
        #expect(store.isKnownEmpty)
    }

    @Test func aFailingStoreIsATypedErrorOfTheHSTSStage() async throws {
        struct Broken: HSTSStore {
            struct Failure: Error {}
            func entry(covering host: String) async throws -> HSTSEntry? { throw Failure() }
            func update(_ entry: HSTSEntry) async throws { throw Failure() }
        }
        let transport = ScriptedTransport { _, _ in .text("ok") }
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: transport, hsts: Broken()).send(Request("http://a.example/"))
        }
        #expect(error?.code == .storageFailed)
        #expect(error?.stage == .hsts)
        #expect(transport.requests.isEmpty, "nothing is sent when the store cannot say")
    }
}
