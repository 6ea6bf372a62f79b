// Fuzzes authentication challenge parsing (ChallengeParser, RFC 9110 §11) and Digest challenge handling
// (DigestNegotiation: parameters, algorithms, qop) through to a computed Authorization value.
//
// Input: one WWW-Authenticate value per line. Invariants: schemes are non-empty tokens; a Digest negotiation either
// throws a ClientError or produces a "Digest " authorization that carries the challenge's nonce.
import FuzzSupport
import HTTPCore
import HTTPPipeline
@testable import HTTPAuthentication

let credential = Credential(user: "user", password: "secret")
let request = AuthenticatedRequest(method: "GET", target: "/index.html", body: [])

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let values = input.bytes.split(separator: 0x0A, maxSplits: 8).map { String(decoding: $0, as: UTF8.self) }
    let challenges = ChallengeParser.challenges(in: values)
    for challenge in challenges where challenge.scheme == .digest {
        do {
            let negotiation = try DigestNegotiation(
                challenge: challenge, credential: credential, cnonce: { "0a4f113b" })
            let authorization = try negotiation.authorization(for: request)
            fuzzCheck(authorization.hasPrefix("Digest "), "authorization \(authorization)")
            fuzzCheck(!authorization.contains("secret"), "the password leaked into the authorization")
            _ = negotiation.proceed(after: challenge)
        } catch {
            fuzzCheckClientError(error)
        }
    }
    return 0
}

runLibFuzzer { fuzz($0, $1) }
