import HTTPCore
import Synchronization

/// One credential's Digest negotiation with one server or proxy: keeps the nonce and counts it (`nc`) across
/// requests, takes a `stale=true` challenge's new nonce without a new credential, and makes each request's
/// `Authorization` value.
final class DigestNegotiation: AuthenticationNegotiation {
    private struct Challenge: Sendable {
        var computation: DigestComputation
        var challengedAlgorithm: String?
        var opaque: String?
        var qops: [String]
        var userhash: Bool
        var count: UInt32 = 0
    }

    private let state: Mutex<Challenge>
    private let cnonce: @Sendable () -> String

    /// Starts a negotiation for a Digest challenge.
    /// - Parameters:
    ///   - challenge: The `Digest` challenge.
    ///   - credential: A user name and password.
    ///   - isAvailable: Whether OpenSSL computes a hash function here (``Hashing/isAvailable(_:)``): a challenge
    ///     whose algorithm it refuses (MD5 under FIPS) fails, so the pipeline answers another scheme.
    ///   - cnonce: Makes each client nonce.
    /// - Throws: ``ClientError`` when the challenge has no nonce, names an unknown algorithm or qop, or one OpenSSL
    ///   refuses.
    init(challenge: HTTPChallenge, credential: Credential,
         isAvailable: @Sendable (Hashing.Function) -> Bool = Hashing.isAvailable,
         cnonce: @escaping @Sendable () -> String) throws
    {
        let parsed = try Self.parse(challenge, credential: credential)
        guard isAvailable(parsed.computation.algorithm.function) else {
            throw DigestAuthenticator.failure("the system's OpenSSL refuses \(parsed.computation.algorithm.function)")
        }
        state = Mutex(parsed)
        self.cnonce = cnonce
    }

    func authorization(for request: AuthenticatedRequest) throws -> String {
        let (challenge, count) = state.withLock { state in
            state.count += 1
            return (state, state.count)
        }
        let computation = challenge.computation
        let qop = try Self.pickQop(challenge.qops, body: request.body)
        let nc = Self.hex8(count)
        let cnonce = qop == nil ? "" : cnonce()
        let response = try computation.response(method: request.method, uri: request.target, qop: qop, nc: nc,
                                            cnonce: cnonce, body: request.body ?? [])
        var fields: [String] = []
        if challenge.userhash {
            fields.append("username=\(Self.quoted(try computation.userHash()))")
        } else if computation.user.utf8.allSatisfy({ $0 < 0x7F }) {
            // ASCII control bytes (a CR/LF in the name) as %XX inside the quotes, as curl writes them (test 3221)
            fields.append("username=\(Self.quoted(Self.controlsEscaped(computation.user)))")
        } else {
            fields.append("username*=UTF-8''\(Self.percentEncoded(computation.user))")
        }
        fields.append("realm=\(Self.quoted(computation.realm))")
        fields.append("nonce=\(Self.quoted(computation.nonce))")
        fields.append("uri=\(Self.quoted(request.target))")
        if let qop {
            fields.append("cnonce=\(Self.quoted(cnonce))")
            fields.append("nc=\(nc)")
            fields.append("qop=\(qop)")
        }
        fields.append("response=\(Self.quoted(response))")
        if let opaque = challenge.opaque { fields.append("opaque=\(Self.quoted(opaque))") }
        if let algorithm = challenge.challengedAlgorithm { fields.append("algorithm=\(algorithm)") }
        if challenge.userhash { fields.append("userhash=true") }
        return "Digest " + fields.joined(separator: ", ")
    }

    /// A `stale=true` challenge (RFC 7616 §3.3) carries a new nonce for the same credential: go on with it.
    /// Any other challenge means the credential was refused.
    func proceed(after challenge: HTTPChallenge) -> NegotiationStep {
        guard challenge.parameters["stale"]?.lowercased() == "true" else { return .rejected }
        return state.withLock { state in
            let credential = Credential(user: state.computation.user, password: state.computation.password)
            guard let fresh = try? Self.parse(challenge, credential: credential) else { return .rejected }
            state = fresh
            return .continue
        }
    }

    private static func parse(_ challenge: HTTPChallenge, credential: Credential) throws -> Challenge {
        let parameters = challenge.parameters
        guard let nonce = parameters["nonce"] else { throw DigestAuthenticator.failure("the challenge has no nonce") }
        guard let algorithm = DigestComputation.Algorithm(parameters["algorithm"]) else {
            throw DigestAuthenticator.failure("unsupported algorithm \(parameters["algorithm"] ?? "")")
        }
        let qops = parameters["qop"].map {
            $0.split(separator: ",").map { String($0.filter { $0 != " " && $0 != "\t" }).lowercased() }
        }
        if let qops, !qops.contains("auth"), !qops.contains("auth-int") {
            throw DigestAuthenticator.failure("unsupported qop")
        }
        let computation = DigestComputation(algorithm: algorithm, user: credential.user,
                                            password: credential.password, realm: parameters["realm"] ?? "",
                                            nonce: nonce)
        return Challenge(computation: computation, challengedAlgorithm: parameters["algorithm"],
                         opaque: parameters["opaque"], qops: qops ?? [],
                         userhash: parameters["userhash"]?.lowercased() == "true")
    }

    /// `auth` when offered (it needs no body), else `auth-int` when the body is known; `nil` without `qop`.
    private static func pickQop(_ qops: [String], body: [UInt8]?) throws -> String? {
        if qops.isEmpty { return nil }
        if qops.contains("auth") { return "auth" }
        guard body != nil else { throw DigestAuthenticator.failure("auth-int needs a body held in memory") }
        return "auth-int"
    }

    static func hex8(_ count: UInt32) -> String {
        let digits = String(count, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// `text` with its ASCII control bytes written as `%XX` (upper-case hex), so none reaches a header field.
    static func controlsEscaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "%" + (hex.count < 2 ? "0" : "") + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }

    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + Hashing.hex([byte]).uppercased()
            }
        }
        return result
    }
}
