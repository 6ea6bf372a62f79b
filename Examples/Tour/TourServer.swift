import HTTPTesting
import Synchronization

/// The tour's server: a few scripted routes.
enum TourServer {
    static let flakyCalls = Atomic<Int>(0)

    @Sendable static func handle(_ request: RecordedRequest) -> LoopbackResponse {
        switch request.path {
        case "/hello":
            return .ok("Hello from the loopback server")
        case "/slow":
            return .ok("worth the wait").delayed(by: .milliseconds(200))
        case "/login":
            return .status(302, headers: [("Location", "/home"), ("Set-Cookie", "session=s1; Path=/")])
        case "/home":
            return .ok("\(request.method) /home with Cookie: \(request.header("Cookie") ?? "none")")
        case "/secret":
            guard request.header("Authorization") == "Basic YWxpY2U6d29uZGVybGFuZA==" else {
                return .status(401, headers: [("WWW-Authenticate", "Basic realm=\"tour\"")], body: Array("who?".utf8))
            }
            return .ok("welcome, alice")
        case "/flaky":
            // The first two attempts stall past the timeout; the third answers.
            let call = flakyCalls.add(1, ordering: .relaxed).newValue
            return call <= 2 ? .stall : .ok("third time lucky")
        case "/cached":
            return .status(200, headers: [("Cache-Control", "max-age=60")], body: Array("cacheable".utf8))
        default:
            return .status(404, body: Array("not here".utf8))
        }
    }
}

/// Prints a chapter heading.
func chapter(_ title: String) {
    print("\n\(title)")
}
