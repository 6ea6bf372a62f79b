// Fuzzes SetCookieParser (RFC 6265 §5.2 plus the date parser) with each input line as one Set-Cookie value.
//
// Invariants: a parsed cookie has a non-empty name without control bytes, a path starting with "/", a domain that
// the request host domain-matches, and respects the documented length limits.
import FoundationEssentials
import FuzzSupport
import HTTPCore
import HTTPPipeline

let url = URL(string: "https://www.example.com/dir/page.html")!
let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    for line in input.bytes.split(separator: 0x0A, maxSplits: 8) {
        let header = String(decoding: line, as: UTF8.self)
        guard let cookie = SetCookieParser.parse(header, from: url, at: now) else { continue }
        fuzzCheck(header.utf8.count <= SetCookieParser.maxLength, "accepted an over-long header")
        fuzzCheck(!cookie.name.isEmpty, "empty cookie name")
        let controls = { (text: String) in text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
        fuzzCheck(!controls(cookie.name) && !controls(cookie.value), "control byte in name or value")
        fuzzCheck(cookie.path.hasPrefix("/"), "path \(cookie.path) does not start with /")
        let host = "www.example.com"
        fuzzCheck(
            cookie.domain == host || host.hasSuffix("." + cookie.domain), "domain \(cookie.domain) does not match")
        if let expires = cookie.expires {
            fuzzCheck(expires <= now.addingTimeInterval(SetCookieParser.maxLifetime), "lifetime past the cap")
        }
    }
    return 0
}

runLibFuzzer { fuzz($0, $1) }
