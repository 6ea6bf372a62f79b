import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import SocketTransport
import TestSupport
import Testing

@testable import OpenAPIASIKit

/// The checklist of swift-openapi-urlsession's transport tests: request and response conversion, a basic GET and
/// POST over sockets, redirects with each body iteration behaviour, and the errors.
@Suite("ASIKitTransport")
struct ASIKitTransportTests {
    @Test func theRequestIsConvertedAsGenerated() async throws {
        let scripted = ScriptedTransport { _, _ in
            Response(status: .created, headerFields: [HTTPField.Name("x-mumble3")!: "mumble"], body: .empty)
        }
        let transport = ASIKitTransport(client: Client(transport: scripted))
        var fields: HTTPFields = [HTTPField.Name("x-mumble2")!: "mumble"]
        fields.append(HTTPField(name: HTTPField.Name("x-mumble2")!, value: "mumble"))
        fields[.cookie] = "uid=asikit; sid=0123456789-9876543210"
        fields[HTTPField.Name("X-Emoji")!] = "😀"
        let (response, body) = try await transport.send(
            Fixture.request(.post, "/hello%20world/Maria?greeting=Howdy", fields: fields), body: HTTPBody("hi"),
            baseURL: URL(string: "http://example.com/api")!, operationID: "greet")

        let sent = try #require(scripted.requests.first)
        #expect(sent.url.absoluteString == "http://example.com/api/hello%20world/Maria?greeting=Howdy")
        #expect(sent.method == .post)
        #expect(sent.headerFields[values: HTTPField.Name("x-mumble2")!] == ["mumble", "mumble"])
        #expect(sent.headerFields[.cookie] == "uid=asikit; sid=0123456789-9876543210")
        #expect(sent.headerFields[HTTPField.Name("X-Emoji")!] == "😀")
        #expect(sent.userInfo[ASIKitTransport.operationIDKey] as? String == "greet")
        #expect(sent.body?.length == 2)
        #expect(response.status.code == 201)
        #expect(response.headerFields[HTTPField.Name("x-mumble3")!] == "mumble")
        #expect(try await Fixture.text(body) == "")
    }

    @Test(arguments: [
        ("http://example.com", "/a?b=c", "http://example.com/a?b=c"),
        ("http://example.com/", "/a", "http://example.com/a"),
        ("http://example.com/api/", "/a%2Fb", "http://example.com/api/a%2Fb"),
        ("http://example.com/api", "/", "http://example.com/api/"),
    ])
    func theServerURLAndPathJoin(base: String, path: String, expected: String) throws {
        let url = try ASIKitTransport.url(for: Fixture.request(.get, path), baseURL: URL(string: base)!)
        #expect(url.absoluteString == expected)
    }

    @Test func aHeadResponseAndA204HaveNoBody() async throws {
        let transport = ASIKitTransport(client: Client(transport: ScriptedTransport { request, _ in
            Response(status: request.method == .head ? .ok : .noContent, body: ResponseBody(bytes: []))
        }))
        let base = URL(string: "http://example.com")!
        let (head, headBody) = try await transport.send(
            Fixture.request(.head, "/"), body: nil, baseURL: base, operationID: "head")
        #expect(head.status == .ok)
        #expect(headBody == nil)
        let (empty, emptyBody) = try await transport.send(
            Fixture.request(.delete, "/"), body: nil, baseURL: base, operationID: "delete")
        #expect(empty.status == .noContent)
        #expect(emptyBody == nil)
    }

    @Test func aBasicGetOverSockets() async throws {
        let server = try LoopbackServer { request in
            request.body.isEmpty ? .ok("Hello, \(request.path)") : .status(400)
        }
        defer { server.shutdown() }
        let (transport, client) = Fixture.transport()
        let (response, body) = try await transport.send(
            Fixture.request(.get, "/hello/world"), body: nil, baseURL: server.baseURL, operationID: "get")
        #expect(response.status == .ok)
        #expect(try await Fixture.text(body) == "Hello, /hello/world")
        #expect(server.requests.first?.method == "GET")
        try await client.shutdown()
    }

    @Test func aBasicPostOverSockets() async throws {
        let server = try LoopbackServer { request in .ok("got \(String(decoding: request.body, as: UTF8.self))") }
        defer { server.shutdown() }
        let (transport, client) = Fixture.transport()
        let (response, body) = try await transport.send(
            Fixture.request(.post, "/post"), body: HTTPBody("✊ knock knock!"), baseURL: server.baseURL,
            operationID: "post")
        #expect(response.status == .ok)
        #expect(try await Fixture.text(body) == "got ✊ knock knock!")
        #expect(server.requests.first?.method == "POST")
        try await client.shutdown()
    }

    static let knock = ["✊", "✊", " ", "knock", " ", "knock!"]

    /// A 307 sends the body again: a body that iterates many times is sent twice, one that iterates once is not
    /// read a second time, and the error says why.
    @Test(arguments: [IterationBehavior.multiple, .single])
    func aRedirectKeepingTheBodyRespectsItsIterationBehaviour(behavior: IterationBehavior) async throws {
        let server = try LoopbackServer { request in
            guard String(decoding: request.body, as: UTF8.self) == Self.knock.joined() else { return .status(400) }
            return request.path == "/old" ? .redirect(307, to: "/new") : .ok("new")
        }
        defer { server.shutdown() }
        let (transport, client) = Fixture.transport()
        let iterations = IterationCounter()
        let body = Fixture.body(Self.knock, behavior: behavior, iterations: iterations)
        let send = {
            try await transport.send(
                Fixture.request(.post, "/old"), body: body, baseURL: server.baseURL, operationID: "o")
        }
        if behavior == .multiple {
            let (response, responseBody) = try await send()
            #expect(response.status == .ok)
            #expect(try await Fixture.text(responseBody) == "new")
            #expect(iterations.value == 2)
            #expect(server.requests.map(\.path) == ["/old", "/new"])
        } else {
            let error = await #expect(throws: HTTPCore.ClientError.self) { try await send() }
            #expect(error?.code == .uploadFailed)
            #expect(error?.message.contains("one-time stream") == true)
            #expect(iterations.value == 1)
            #expect(server.requests.map(\.path) == ["/old"])
        }
        try await client.shutdown()
    }

    /// A 401 answered with a credential sends the body again, under the same rule as a redirect.
    @Test(arguments: [IterationBehavior.multiple, .single])
    func aChallengeAnswerRespectsTheIterationBehaviour(behavior: IterationBehavior) async throws {
        let server = try LoopbackServer { request in
            guard request.header("Authorization") != nil else {
                return .status(401, headers: [("WWW-Authenticate", "Basic realm=\"api\"")])
            }
            return .ok("welcome, \(request.body.count) bytes")
        }
        defer { server.shutdown() }
        let client = Client(transport: POSIXTransport())
        var options = RequestOptions()
        options.credential = Credential(user: "alice", password: "wonderland")
        options.presentsCredentialsBeforeChallenge = false
        let transport = ASIKitTransport(client: client, configuration: .init(options: options))
        let iterations = IterationCounter()
        let body = Fixture.body(Self.knock, behavior: behavior, iterations: iterations)
        let send = {
            try await transport.send(
                Fixture.request(.put, "/doc"), body: body, baseURL: server.baseURL, operationID: "p")
        }
        if behavior == .multiple {
            let (response, responseBody) = try await send()
            #expect(response.status == .ok)
            #expect(try await Fixture.text(responseBody) == "welcome, \(Self.knock.joined().utf8.count) bytes")
            #expect(iterations.value == 2)
        } else {
            let error = await #expect(throws: HTTPCore.ClientError.self) { try await send() }
            #expect(error?.code == .uploadFailed)
            #expect(iterations.value == 1)
            #expect(server.requests.count == 1)
        }
        try await client.shutdown()
    }

    /// Errors are the client's typed error, and a generated client's `ClientError` carries it.
    @Test func errorsCarryTheClientsTypedError() async throws {
        let refusing = RefusingPort()
        let url = URL(string: "http://127.0.0.1:\(refusing.port)")!
        let (transport, client) = Fixture.transport()
        let error = await #expect(throws: HTTPCore.ClientError.self) {
            try await transport.send(
                Fixture.request(.get, "/"), body: nil, baseURL: url, operationID: "refused")
        }
        #expect(error?.code == .connectFailed)
        #expect(error?.stage == .transport)

        let universal = UniversalClient(serverURL: url, transport: transport)
        let wrapped = await #expect(throws: OpenAPIRuntime.ClientError.self) {
            _ = try await universal.send(
                input: (), forOperation: "refused",
                serializer: { _ in (Fixture.request(.get, "/"), nil) },
                deserializer: { _, _ in () })
        }
        #expect((wrapped?.underlyingError as? HTTPCore.ClientError)?.code == .connectFailed)
        try await client.shutdown()
    }

    @Test func theDefaultClientIsShared() {
        #expect(ASIKitTransport().client.transport is POSIXTransport)
        #expect(ASIKitTransport().client.middleware.isEmpty)
    }
}

/// Every public type of OpenAPIASIKit crosses into a detached task.
@Suite("OpenAPIASIKit sendability")
struct OpenAPIASIKitSendableTests {
    @Test func publicTypesAreSendable() async {
        let transport = ASIKitTransport(client: Client(transport: ScriptedTransport.ok))
        let configuration = ASIKitTransport.Configuration()
        let timeout = await Task.detached { (transport.configuration.options.timeout, configuration.options.timeout) }
            .value
        #expect(timeout.0 == timeout.1)
    }
}
