import FoundationEssentials
import HTTPTesting
import Testing

/// `-X METHOD -L`: the method on every hop, as curl 7.88 sends it (checked with `curl -X POST -d a=1 -L` against a
/// Python server answering 301, 302, 303 and 307).
@Suite("asi: -X across redirects")
struct ASICommandRedirectMethodTests {
    @Test func customMethodIsSentOnEveryRedirectHopAsCurlDoes() async throws {
        let server = try LoopbackServer { request in
            switch request.path {
            case "/301", "/302", "/303", "/307": .redirect(Int(request.path.dropFirst())!, to: "/final")
            default: .ok("final")
            }
        }
        defer { server.shutdown() }
        // curl 7.88: -X POST -d a=1 -L sends POST on every hop; after 301/302/303 the body is not sent again,
        // after 307 it is.
        for (status, resent) in [("301", false), ("302", false), ("303", false), ("307", true)] {
            let before = server.requests.count
            let url = server.url("/" + status).absoluteString
            let run = try await ASICommandRun.run(["-s", "-L", "-X", "POST", "-d", "a=1", url])
            #expect(run.status == 0 && run.output == "final", "\(run.stderr)")
            let hops = Array(server.requests.dropFirst(before))
            #expect(hops.map(\.method) == ["POST", "POST"], "after a \(status)")
            #expect(hops.map(\.path) == ["/\(status)", "/final"])
            #expect(hops.last?.body == (resent ? Array("a=1".utf8) : []), "after a \(status)")
            #expect((hops.last?.header("Content-Type") != nil) == resent)
        }
        // Without -X, the method changes as curl changes it: POST becomes GET after a 302.
        let before = server.requests.count
        let plain = try await ASICommandRun.run(["-s", "-L", "-d", "a=1", server.url("/302").absoluteString])
        #expect(plain.status == 0)
        #expect(server.requests.dropFirst(before).map(\.method) == ["POST", "GET"])
    }
}
