import Foundation
import HTTPCore
import HTTPPipeline
import Testing

/// The IETF http-state parser cases (`../shared/corpora/cookies`, 222 pairs) as library tests: the `Set-Cookie`
/// lines of each case, received from `http://home.example.org:8888/cookie-parser?NAME`, then the `Cookie` header
/// for the redirect target, compared byte for byte with the case's expectation. The `disabled-*` cases (disabled
/// upstream) are reported apart and not asserted. Skipped when the corpus is absent, unless ASI_REQUIRE_PEERS=1.
@Suite struct CookieCorpusTests {
    /// `<repo>/../shared/corpora/cookies/parser`, or under `ASI_CORPORA_DIR` (a checkout elsewhere).
    static let directory: String = (ProcessInfo.processInfo.environment["ASI_CORPORA_DIR"].map { URL(filePath: $0) }
        ?? URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "../shared/corpora"))
        .appending(path: "cookies/parser").standardizedFileURL.path(percentEncoded: false)

    static var isPresent: Bool { FileManager.default.fileExists(atPath: directory) }
    static var isRequired: Bool { ProcessInfo.processInfo.environment["ASI_REQUIRE_PEERS"] == "1" }

    /// One case: the served header lines and the expected `Cookie` value (`nil`: no header).
    struct Case {
        var name: String
        var setCookies: [String]
        var location: String
        var expected: String?
    }

    static func loadCases() throws -> [Case] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix("-test") }.map { String($0.dropLast("-test".count)) }.sorted()
        return try names.map { name in
            let test = try String(contentsOfFile: directory + "/" + name + "-test", encoding: .utf8)
            var setCookies: [String] = []
            var location = "/cookie-parser-result?" + name
            for line in test.split(separator: "\n", omittingEmptySubsequences: false) {
                guard let match = line.firstMatch(of: /(\S+):\s*(.*)/) else { continue }
                // What an HTTP parser gives: the value without surrounding whitespace. The runner's date fix:
                // 2019 and 2027 (past or soon past) become 2099.
                let value = String(String(match.2).trimmingCharacters(in: .whitespaces))
                switch match.1.lowercased() {
                case "set-cookie":
                    setCookies.append(value.replacingOccurrences(of: "2019", with: "2099")
                        .replacingOccurrences(of: "2027", with: "2099"))
                case "location": location = value
                default: continue
                }
            }
            let expectedText = try String(contentsOfFile: directory + "/" + name + "-expected", encoding: .utf8)
            let hits = expectedText.matches(of: /Cookie:\s*(.*)/).map { String($0.1) }
            return Case(name: name, setCookies: setCookies, location: location,
                        expected: hits.count == 1 ? hits[0] : nil)
        }
    }

    /// The `Cookie` header the library sends for the case's redirect, or `nil` for none.
    static func cookieHeader(for testCase: Case) async throws -> String? {
        let origin = try #require(URL(string: "http://home.example.org:8888/cookie-parser?" + testCase.name))
        let jar = MemoryCookieJar()
        var fields = HTTPFields()
        for value in testCase.setCookies { fields.append(HTTPField(name: .setCookie, value: value)) }
        await jar.store(SetCookieParser.cookies(in: fields, from: origin), receivedFrom: origin)
        let target = try #require(URL(string: testCase.location, relativeTo: origin)?.absoluteURL)
        let cookies = await jar.cookies(for: target)
        return cookies.isEmpty ? nil : cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    @Test func everyEnabledHTTPStateCasePasses() async throws {
        guard Self.isPresent else {
            if Self.isRequired { Issue.record("the cookie corpus is missing at \(Self.directory)") }
            return
        }
        let cases = try Self.loadCases()
        #expect(cases.count == 222)
        var failed: [String] = []
        var disabledFailing: [String] = []
        for testCase in cases {
            let sent = try await Self.cookieHeader(for: testCase)
            guard sent != testCase.expected else { continue }
            if testCase.name.hasPrefix("disabled-") {
                disabledFailing.append(testCase.name)
            } else {
                failed.append("\(testCase.name): sent \(sent ?? "nothing"), want \(testCase.expected ?? "nothing")")
            }
        }
        #expect(failed.isEmpty, "\(failed.joined(separator: "\n"))")
        // Upstream disabled these: NUL and CR inside a value (refused here, RFC 6265bis §5.6) and a path that
        // matches only after percent-decoding.
        #expect(Set(disabledFailing).isSubset(of: ["disabled-chromium0022", "disabled-chromium0023",
                                                   "disabled-path0029"]))
    }
}
