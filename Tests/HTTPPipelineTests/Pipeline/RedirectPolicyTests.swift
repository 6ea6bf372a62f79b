import FoundationEssentials
import HTTPCore
import HTTPPipeline
import Testing

@Suite struct RedirectPolicyTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var status: Int
        var method: HTTPRequest.Method
        var hasBody: Bool
        var crossOrigin: Bool
        var behavior: RedirectBehavior
        var keepsMethod = false
        var testDescription: String {
            "\(status) \(method.rawValue) body:\(hasBody) cross:\(crossOrigin) \(behavior) keepsMethod:\(keepsMethod)"
        }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        for status in [301, 302, 303, 307, 308] {
            for method: HTTPRequest.Method in [.get, .head, .post, .put, .delete, HTTPRequest.Method("FINK")!] {
                for hasBody in [false, true] {
                    for crossOrigin in [false, true] {
                        for behavior: RedirectBehavior in [.browser, .rfc2616] {
                            for keepsMethod in [false, true] {
                                cases.append(Case(status: status, method: method, hasBody: hasBody,
                                                  crossOrigin: crossOrigin, behavior: behavior, keepsMethod: keepsMethod))
                            }
                        }
                    }
                }
            }
        }
        return cases
    }()

    @Test(arguments: cases)
    func redirect(_ testCase: Case) throws {
        var request = Request(url: url("http://a.example/start?x=1"), method: testCase.method)
        request.options.redirectBehavior = testCase.behavior
        request.options.keepsMethodOnRedirect = testCase.keepsMethod
        request.headerFields[.authorization] = "Basic abc"
        request.headerFields[.cookie] = "session=1"
        request.headerFields[.accept] = "text/plain"
        request.options.credential = Credential(user: "u", password: "p")
        request.headerFields[HTTPField.Name("X-Api-Key")!] = "k"
        if testCase.hasBody {
            request.body = .string("payload")
            request.headerFields[.contentType] = "text/plain"
        }
        let location = testCase.crossOrigin ? "https://b.example/next" : "/next"
        let next = try #require(try RedirectPolicy.nextRequest(status: testCase.status, location: location,
                                                               after: request))

        let becomesGET: Bool
        switch testCase.status {
        case 303: becomesGET = testCase.method != .head
        case 301, 302: becomesGET = testCase.behavior == .browser && testCase.method != .head
        default: becomesGET = false
        }
        // curl's -X (keepsMethodOnRedirect): the method stays where the rules say GET, and the body goes all the same.
        #expect(next.method == (becomesGET && !testCase.keepsMethod ? .get : testCase.method))
        #expect((next.body != nil) == (testCase.hasBody && !becomesGET))
        if becomesGET { #expect(next.headerFields[.contentType] == nil) }
        #expect(next.url.absoluteString == (testCase.crossOrigin ? "https://b.example/next" : "http://a.example/next"))
        #expect((next.headerFields[.authorization] == nil) == testCase.crossOrigin)
        #expect((next.headerFields[.cookie] == nil) == testCase.crossOrigin)
        #expect((next.options.credential == nil) == testCase.crossOrigin)
        #expect(next.headerFields[.accept] == "text/plain")
        #expect(next.headerFields[HTTPField.Name("X-Api-Key")!] == "k")
    }

    @Test func keepsCredentialsOnRedirectLetsAuthorizationAndTheCredentialFollowButNotCookies() throws {
        var request = Request(url: url("http://a.example/start"))
        request.headerFields[.authorization] = "Basic abc"
        request.headerFields[.cookie] = "session=1"
        request.options.credential = Credential(user: "u", password: "p")
        request.options.keepsCredentialsOnRedirect = true
        let next = try #require(try RedirectPolicy.nextRequest(status: 302, location: "https://b.example/next",
                                                               after: request))
        #expect(next.headerFields[.authorization] == "Basic abc")
        #expect(next.options.credential == Credential(user: "u", password: "p"))
        #expect(next.headerFields[.cookie] == nil)
    }

    @Test(arguments: [200, 204, 300, 304, 305, 306, 400, 404, 500])
    func nonRedirectStatusesDoNotRedirect(_ status: Int) throws {
        #expect(try RedirectPolicy.nextRequest(status: status, location: "/x", after: Request("http://a.example/")) == nil)
    }

    @Test func missingLocationDoesNotRedirect() throws {
        #expect(try RedirectPolicy.nextRequest(status: 302, location: nil, after: Request("http://a.example/")) == nil)
    }

    @Test func portChangeIsCrossOrigin() throws {
        var request = Request("http://a.example/")
        request.headerFields[.authorization] = "Basic abc"
        let next = try #require(try RedirectPolicy.nextRequest(status: 307, location: "http://a.example:8080/",
                                                               after: request))
        #expect(next.headerFields[.authorization] == nil)
    }

    @Test func nonHTTPLocationIsRejected() {
        #expect(throws: ClientError.self) {
            try RedirectPolicy.nextRequest(status: 302, location: "ftp://a.example/f", after: Request("http://a.example/"))
        }
    }

    @Test func oneShotStreamBodyCannotBeResent() {
        var request = Request("http://a.example/", method: .post)
        request.body = .stream(length: 1) { RequestBody.Chunks([[1]]) }
        let error = #expect(throws: ClientError.self) {
            try RedirectPolicy.nextRequest(status: 307, location: "/again", after: request)
        }
        #expect(error?.code == .uploadFailed)
    }

    @Test func requestCookiesDoNotFollow() throws {
        var request = Request("http://a.example/")
        request.options.requestCookies = [Cookie(name: "manual", value: "1", domain: "a.example")]
        let next = try #require(try RedirectPolicy.nextRequest(status: 302, location: "/n", after: request))
        #expect(next.options.requestCookies.isEmpty)
    }
}
