import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

@Suite struct PipelineRedirectTests {
    /// /hop/N redirects to /hop/N-1; /hop/0 answers 200.
    static func chain() -> ScriptedTransport {
        ScriptedTransport { request, _ in
            let n = Int(request.url.lastPathComponent) ?? 0
            return n == 0 ? .text("done") : .redirect(302, to: "/hop/\(n - 1)")
        }
    }

    @Test func followsFiveHops() async throws {
        let transport = Self.chain()
        let response = try await Client(transport: transport).send(Request("http://a.example/hop/5"))
        #expect(response.status == .ok)
        #expect(response.info.redirectCount == 5)
        #expect(response.info.originalURL.absoluteString == "http://a.example/hop/5")
        #expect(response.url.absoluteString == "http://a.example/hop/0")
        #expect(transport.requests.count == 6)
    }

    @Test func sixthHopFails() async throws {
        let error = await #expect(throws: ClientError.self) {
            try await Client(transport: Self.chain()).send(Request("http://a.example/hop/6"))
        }
        #expect(error?.code == .tooManyRedirects)
        #expect(error?.code.asiErrorType == 9)
    }

    @Test func maxRedirectsIsConfigurable() async throws {
        var request = Request("http://a.example/hop/2")
        request.options.maxRedirects = 1
        await #expect(throws: ClientError.self) { try await Client(transport: Self.chain()).send(request) }
    }

    @Test func disabledRedirectReturnsTheRedirect() async throws {
        var request = Request("http://a.example/hop/1")
        request.options.followsRedirects = false
        let response = try await Client(transport: Self.chain()).send(request)
        #expect(response.status.code == 302)
        #expect(response.headerFields[.location] == "/hop/0")
    }

    @Test func postBecomesGETOn302AndKeepsBodyOn307() async throws {
        let transport = ScriptedTransport { request, _ in
            switch request.url.path() {
            case "/302": .redirect(302, to: "/end")
            case "/307": .redirect(307, to: "/end")
            default: .text("\(request.method) \(request.body?.length ?? -1)")
            }
        }
        let client = Client(transport: transport)
        var post = Request("http://a.example/302", method: .post)
        post.body = .string("abc")
        #expect(try await client.send(post).text() == "GET -1")
        post.url = url("http://a.example/307")
        #expect(try await client.send(post).text() == "POST 3")
    }

    @Test func cookiesSetAlongTheChainAreSentOnLaterHops() async throws {
        let transport = ScriptedTransport { request, _ in
            switch request.url.path() {
            case "/login":
                var response = Response.redirect(302, to: "/home")
                response.headerFields[.setCookie] = "session=abc; Path=/"
                return response
            default:
                return .text(request.headerFields[.cookie] ?? "none")
            }
        }
        let response = try await Client(transport: transport).send(Request("http://a.example/login"))
        #expect(response.text() == "session=abc")
    }

    @Test func credentialsAndCookiesDoNotCrossOrigins() async throws {
        let transport = ScriptedTransport { request, _ in
            request.url.host() == "a.example" ? .redirect(302, to: "http://b.example/") : .text("b")
        }
        let jar = MemoryCookieJar()
        await jar.store([Cookie(name: "only-a", value: "1", domain: "a.example")], receivedFrom: url("http://a.example/"))
        var request = Request("http://a.example/")
        request.headerFields[.authorization] = "Bearer secret"
        request.options.credential = Credential(user: "u", password: "p")
        request.options.authenticationScheme = .basic
        _ = try await Client(transport: transport, cookies: jar).send(request)
        let second = transport.requests[1]
        #expect(second.url.host() == "b.example")
        #expect(second.headerFields[.authorization] == nil)
        #expect(second.headerFields[.cookie] == nil)
        #expect(transport.requests[0].headerFields[.cookie] == "only-a=1")
    }

    @Test func relativeLocationIsResolved() async throws {
        let transport = ScriptedTransport { request, _ in
            request.url.path() == "/a/b" ? .redirect(301, to: "../c?q=1") : .text(request.url.absoluteString)
        }
        #expect(try await Client(transport: transport).send(Request("http://a.example/a/b")).text()
            == "http://a.example/c?q=1")
    }

    @Test func willRedirectCallbackSeesEveryHop() async throws {
        let hops = HopRecorder()
        let handle = Client(transport: Self.chain()).start(
            Request("http://a.example/hop/2"),
            callbacks: RequestCallbacks(willRedirect: { hops.append($0.path()) }))
        await handle.wait()
        await Client.callbackQueue.drain()
        #expect(hops.values == ["/hop/1", "/hop/0"])
    }
}
