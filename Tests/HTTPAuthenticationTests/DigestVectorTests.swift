import HTTPCore
import Testing

@testable import HTTPAuthentication

/// Known answers for the library's own Digest code. Values from ../shared/corpora/auth/vectors.json, which cites
/// RFC 2617 §3.5 and RFC 7616 §3.9.1–3.9.2 (the RFCs' own examples, with their fixed cnonce values).
@Suite struct DigestVectorTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var id: String
        var algorithm: String
        var user: String
        var password: String
        var realm: String
        var nonce: String
        var cnonce: String
        var uri: String
        var response: String
        var testDescription: String { id }
    }

    static let vectors = [
        Vector(id: "RFC 2617 §3.5", algorithm: "MD5", user: "Mufasa", password: "Circle Of Life",
               realm: "testrealm@host.com", nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093", cnonce: "0a4f113b",
               uri: "/dir/index.html", response: "6629fae49393a05397450978507c4ef1"),
        Vector(id: "RFC 7616 §3.9.1 MD5", algorithm: "MD5", user: "Mufasa", password: "Circle of Life",
               realm: "http-auth@example.org", nonce: "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
               cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", uri: "/dir/index.html",
               response: "8ca523f5e9506fed4657c9700eebdbec"),
        Vector(id: "RFC 7616 §3.9.1 SHA-256", algorithm: "SHA-256", user: "Mufasa", password: "Circle of Life",
               realm: "http-auth@example.org", nonce: "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
               cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", uri: "/dir/index.html",
               response: "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"),
        Vector(id: "RFC 7616 §3.9.2 SHA-512-256", algorithm: "SHA-512-256", user: "J\u{E4}s\u{F8}n Doe",
               password: "Secret, or not?", realm: "api@example.org",
               nonce: "5TsQWLVdgBdmrQ0XsxbDODV+57QdFR34I9HAbC/RVvkK",
               cnonce: "NTg6RKcb9boFIAS3KrFK9BGeh+iDa/sm6jUMp2wds69v", uri: "/doe.json",
               response: "3798d4131c277846293534c3edc11bd8a5e4cdcbff78b05db9d95eeb1cec68a5"),
    ]

    @Test(arguments: vectors) func responseMatchesTheRFC(_ vector: Vector) throws {
        let algorithm = try #require(DigestComputation.Algorithm(vector.algorithm))
        let computation = DigestComputation(algorithm: algorithm, user: vector.user, password: vector.password,
                                            realm: vector.realm, nonce: vector.nonce)
        #expect(try computation.response(method: "GET", uri: vector.uri, qop: "auth", nc: "00000001",
                                     cnonce: vector.cnonce) == vector.response)
    }

    @Test func userhashMatchesRFC7616() throws {
        let computation = DigestComputation(
            algorithm: try #require(DigestComputation.Algorithm("SHA-512-256")), user: "J\u{E4}s\u{F8}n Doe",
            password: "Secret, or not?", realm: "api@example.org", nonce: "x")
        #expect(try computation.userHash() == "793263caabb707a56211940d90411ea4a575adeccb7e360aeb624ed06ece9b0b")
    }

    @Test func negotiationSendsTheRFCHeaderAndCountsTheNonce() throws {
        let challenge = HTTPChallenge(scheme: .digest, parameters: [
            "realm": "http-auth@example.org", "qop": "auth, auth-int", "algorithm": "SHA-256",
            "nonce": "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
            "opaque": "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS",
        ])
        let negotiation = try DigestNegotiation(
            challenge: challenge, credential: Credential(user: "Mufasa", password: "Circle of Life")
        ) { "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ" }
        let request = AuthenticatedRequest(method: "GET", target: "/dir/index.html")
        let first = try negotiation.authorization(for: request)
        #expect(first.contains("response=\"753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1\""))
        #expect(first.contains("nc=00000001") && first.contains("qop=auth,") && first.contains("algorithm=SHA-256"))
        #expect(first.contains("opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\""))
        let second = try negotiation.authorization(for: request)
        #expect(second.contains("nc=00000002"))
        #expect(!second.contains("753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"))
    }

    @Test func userhashNegotiationSendsTheHashedName() throws {
        let challenge = HTTPChallenge(scheme: .digest, parameters: [
            "realm": "api@example.org", "qop": "auth", "algorithm": "SHA-512-256", "userhash": "true",
            "nonce": "5TsQWLVdgBdmrQ0XsxbDODV+57QdFR34I9HAbC/RVvkK",
            "opaque": "HRPCssKJSGjCrkzDg8OhwpzCiGPChXYjwrI2QmXDnsOS",
        ])
        let negotiation = try DigestNegotiation(
            challenge: challenge, credential: Credential(user: "J\u{E4}s\u{F8}n Doe", password: "Secret, or not?")
        ) { "NTg6RKcb9boFIAS3KrFK9BGeh+iDa/sm6jUMp2wds69v" }
        let value = try negotiation.authorization(for: AuthenticatedRequest(method: "GET", target: "/doe.json"))
        #expect(value.contains("username=\"793263caabb707a56211940d90411ea4a575adeccb7e360aeb624ed06ece9b0b\""))
        #expect(value.contains("response=\"3798d4131c277846293534c3edc11bd8a5e4cdcbff78b05db9d95eeb1cec68a5\""))
        #expect(value.contains("userhash=true"))
    }

    /// curl's test 3221: CR/LF in a user name go as `%0A%0D` inside the quotes; the hash uses the name itself.
    @Test func controlBytesInTheNameArePercentEscapedAndNonASCIIUsesUsernameStar() throws {
        let challenge = HTTPChallenge(scheme: .digest, parameters: ["realm": "testrealm%0a%0d", "nonce": "1053604145"])
        let crlf = try DigestNegotiation(
            challenge: challenge, credential: Credential(user: "hello\n\r", password: "there")) { "c" }
        let value = try crlf.authorization(for: AuthenticatedRequest(method: "GET", target: "/"))
        #expect(value.hasPrefix("Digest username=\"hello%0A%0D\", "), "\(value)")
        #expect(value.contains("response=\"64e5ae1b90f05309847ac483c1094284\""), "\(value)")
        let accented = try DigestNegotiation(
            challenge: challenge, credential: Credential(user: "J\u{E4}", password: "p")) { "c" }
        let other = try accented.authorization(for: AuthenticatedRequest(method: "GET", target: "/"))
        #expect(other.hasPrefix("Digest username*=UTF-8''J%C3%A4, "), "\(other)")
    }

    @Test func staleChallengeContinuesWithTheNewNonceAndOthersReject() throws {
        let negotiation = try DigestNegotiation(
            challenge: HTTPChallenge(scheme: .digest, parameters: ["realm": "r", "nonce": "one", "qop": "auth"]),
            credential: Credential(user: "u", password: "p")
        ) { "c" }
        _ = try negotiation.authorization(for: AuthenticatedRequest(method: "GET", target: "/"))
        let stale = HTTPChallenge(scheme: .digest, parameters: ["realm": "r", "nonce": "two", "qop": "auth",
                                                                "stale": "TRUE"])
        #expect(negotiation.proceed(after: stale) == .continue)
        let value = try negotiation.authorization(for: AuthenticatedRequest(method: "GET", target: "/"))
        #expect(value.contains("nonce=\"two\"") && value.contains("nc=00000001"))
        let refused = HTTPChallenge(scheme: .digest, parameters: ["realm": "r", "nonce": "three"])
        #expect(negotiation.proceed(after: refused) == .rejected)
    }

    @Test func authIntHashesTheBodyAndUnknownAlgorithmsThrow() throws {
        let computation = DigestComputation(algorithm: try #require(DigestComputation.Algorithm("md5-sess")),
                                            user: "u", password: "p", realm: "r", nonce: "n")
        let withBody = try computation.response(method: "POST", uri: "/", qop: "auth-int", nc: "00000001", cnonce: "c",
                                            body: Array("x".utf8))
        let empty = try computation.response(method: "POST", uri: "/", qop: "auth-int", nc: "00000001", cnonce: "c")
        #expect(withBody != empty)
        #expect(throws: ClientError.self) {
            try DigestNegotiation(challenge: HTTPChallenge(scheme: .digest, parameters: ["nonce": "n",
                                                                                         "algorithm": "SHA-1"]),
                                  credential: Credential(user: "u", password: "p")) { "c" }
        }
    }
}
