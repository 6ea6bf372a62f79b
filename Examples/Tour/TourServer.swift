import GzipCodec
import HTTPTesting
import Synchronization

/// The tour's server: a few scripted routes.
enum TourServer {
    static let flakyCalls = Atomic<Int>(0)
    static let bigCalls = Atomic<Int>(0)
    static let big: [UInt8] = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    static let text = Array(String(repeating: "ASIKit inflates gzip on the fly. ", count: 400).utf8)
    static let gzipped = (try? ZlibContentCodec().compress(text)) ?? []

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
        case "/upload":
            let type = request.header("Content-Type")?.split(separator: ";").first ?? "none"
            return .ok("received \(request.body.count) bytes of \(type)")
        case "/gzip":
            return .status(200, headers: [("Content-Encoding", "gzip"), ("Content-Type", "text/plain")], body: gzipped)
        case "/big.bin":
            // The first attempt is cut off half-way; a request with Range gets the rest.
            if let range = request.header("Range"), let start = Int(range.dropFirst(6).dropLast()) {
                let header = "bytes \(start)-\(big.count - 1)/\(big.count)"
                return .status(206, headers: [("Content-Range", header)], body: Array(big[start...]))
            }
            return bigCalls.add(1, ordering: .relaxed).newValue == 1
                ? .truncated(body: Array(big.prefix(120_000)), announcedLength: big.count) : .ok(bytes: big)
        case let path where path.hasPrefix("/slow/"):
            return .slowBody(Array(big.prefix(200_000)), firstPart: 50_000, pause: .milliseconds(400))
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
