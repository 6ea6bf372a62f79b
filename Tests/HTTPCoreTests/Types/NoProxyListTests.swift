import FoundationEssentials
import HTTPCore
import Testing

/// `no_proxy` as curl documents it (CURLOPT_NOPROXY, libcurl-env, everything.curl.dev "Proxy environment
/// variables"), plus the port entries curl never matches.
@Suite struct NoProxyListTests {
    /// One row: a `no_proxy` value, a URL, and whether the URL goes directly.
    struct Row: Sendable, CustomTestStringConvertible {
        let list: String
        let url: String
        let bypasses: Bool
        var testDescription: String { "no_proxy=\(list) \(url) → \(bypasses ? "direct" : "proxy")" }
    }

    static let rows: [Row] = [
        // "The only wildcard available is a single * character, which matches all hosts"
        Row(list: "*", url: "http://anything.example/", bypasses: true),
        Row(list: " * ", url: "https://10.1.2.3/", bypasses: true),
        Row(list: "*.example.com", url: "http://www.example.com/", bypasses: false),
        // "ample.com would match ample.com, ample.com:80, and www.ample.com, but not www.example.com or
        // ample.com.org"
        Row(list: "ample.com", url: "http://ample.com/", bypasses: true),
        Row(list: "ample.com", url: "http://ample.com:80/", bypasses: true),
        Row(list: "ample.com", url: "http://ample.com:8080/", bypasses: true),
        Row(list: "ample.com", url: "http://www.ample.com/", bypasses: true),
        Row(list: "ample.com", url: "http://www.example.com/", bypasses: false),
        Row(list: "ample.com", url: "http://ample.com.org/", bypasses: false),
        // ".example.com matches both www.example.com and home.example.com but not nonexample.com"
        Row(list: ".example.com", url: "http://www.example.com/", bypasses: true),
        Row(list: ".example.com", url: "http://home.example.com/", bypasses: true),
        Row(list: ".example.com", url: "http://nonexample.com/", bypasses: false),
        Row(list: ".example.com", url: "http://example.com/", bypasses: true),
        // Case and trailing dots do not count; comma lists with blanks.
        Row(list: "Example.COM.", url: "http://WWW.example.com./", bypasses: true),
        Row(list: "localhost, .internal ,example.org", url: "http://db.internal/", bypasses: true),
        Row(list: "localhost,,example.org", url: "http://example.org/x", bypasses: true),
        Row(list: "localhost example.org", url: "http://example.org/x", bypasses: true),
        Row(list: "localhost,example.org", url: "http://example.net/", bypasses: false),
        // "Enter IPv6 numerical addresses in the list of host names without enclosing brackets"
        Row(list: "example.com,::1,localhost", url: "http://[::1]:8080/", bypasses: true),
        Row(list: "example.com,::1,localhost", url: "http://[::2]/", bypasses: false),
        Row(list: "[::1]", url: "http://[::1]/", bypasses: true),
        Row(list: "0:0:0:0:0:0:0:1", url: "http://[::1]/", bypasses: true),
        // "192.168.0.0/16 would match all addresses starting with 192.168"
        Row(list: "192.168.0.0/16", url: "http://192.168.77.1/", bypasses: true),
        Row(list: "192.168.0.0/16", url: "http://192.169.0.1/", bypasses: false),
        Row(list: "10.0.0.0/8", url: "https://10.255.0.1:8443/", bypasses: true),
        Row(list: "127.0.0.1", url: "http://127.0.0.1:9/", bypasses: true),
        Row(list: "127.0.0.1", url: "http://127.0.0.2/", bypasses: false),
        Row(list: "127.0.0.0/33", url: "http://127.0.0.1/", bypasses: false),
        Row(list: "fd00::/8", url: "http://[fd12:3456::1]/", bypasses: true),
        Row(list: "fd00::/8", url: "http://[fe80::1]/", bypasses: false),
        Row(list: "2001:db8::/33", url: "http://[2001:db8:7fff::1]/", bypasses: true),
        Row(list: "2001:db8::/33", url: "http://[2001:db8:8000::1]/", bypasses: false),
        // Addresses are compared as addresses, never with names (nothing is resolved).
        Row(list: "localhost", url: "http://127.0.0.1/", bypasses: false),
        Row(list: "127.0.0.1", url: "http://localhost/", bypasses: false),
        Row(list: "127.0.0.0/8", url: "http://[::1]/", bypasses: false),
        // Ports: an entry with a port matches that port only (the scheme's default when the URL has none).
        Row(list: "example.com:8080", url: "http://example.com:8080/", bypasses: true),
        Row(list: "example.com:8080", url: "http://example.com/", bypasses: false),
        Row(list: "example.com:443", url: "https://www.example.com/", bypasses: true),
        Row(list: "example.com:80", url: "https://example.com/", bypasses: false),
        Row(list: "127.0.0.1:8080", url: "http://127.0.0.1:8080/", bypasses: true),
        Row(list: "127.0.0.1:8080", url: "http://127.0.0.1:8081/", bypasses: false),
        Row(list: "[::1]:8080", url: "http://[::1]:8080/", bypasses: true),
        Row(list: "[::1]:8080", url: "http://[::1]:80/", bypasses: false),
        // An empty list matches nothing (curl's --noproxy "" turns the environment's list off).
        Row(list: "", url: "http://localhost/", bypasses: false),
    ]

    @Test(arguments: rows) func curlsRules(_ row: Row) throws {
        let url = try #require(URL(string: row.url))
        #expect(NoProxyList(row.list).matches(url) == row.bypasses)
    }

    @Test func starIsEveryHostAndEmptyIsNone() {
        #expect(NoProxyList("*").matchesEveryHost)
        #expect(!NoProxyList("*,example.com").matchesEveryHost)
        #expect(NoProxyList("").isEmpty)
        #expect(NoProxyList(" , ").isEmpty)
        #expect(!NoProxyList("example.com").isEmpty)
        #expect(NoProxyList("a.example, b.example").description == "a.example, b.example")
    }
}
