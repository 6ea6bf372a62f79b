// Fuzzes NTLM CHALLENGE (type 2) message decoding and the NTLMv2 AUTHENTICATE message built from it.
//
// The payload is the raw message; it reaches the negotiation base64-encoded, as from a WWW-Authenticate header.
// Invariants: a parsed challenge has an 8-byte server challenge and target info taken from inside the message;
// the negotiation continues exactly when the message parses, and then answers with an "NTLM " authorization.
import FoundationEssentials
import FuzzSupport
import HTTPCore
@testable import HTTPAuthentication

let credential = Credential(user: "DOMAIN\\user", password: "secret")
let request = AuthenticatedRequest(method: "GET", target: "/", body: [])

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let parsed = NTLMMessages.parseChallenge(input.bytes)
    if let parsed {
        fuzzCheck(parsed.serverChallenge.count == 8, "server challenge of \(parsed.serverChallenge.count) bytes")
        fuzzCheck(parsed.targetInfo.count <= input.bytes.count, "target info larger than the message")
        _ = parsed.timestamp
    }
    let negotiation = NTLMNegotiation(credential: credential, workstation: "WS")
    let token = Data(input.bytes).base64EncodedString()
    let step = negotiation.proceed(after: HTTPChallenge(scheme: .ntlm, token68: token))
    if case .continue = step {
        fuzzCheck(parsed != nil, "continued after an unparseable challenge")
        do {
            let authorization = try negotiation.authorization(for: request)
            fuzzCheck(authorization.hasPrefix("NTLM "), "authorization \(authorization)")
        } catch {
            fuzzCheckClientError(error)
        }
    } else {
        fuzzCheck(parsed == nil, "rejected a challenge that parses")
    }
    return 0
}

runLibFuzzer { fuzz($0, $1) }
