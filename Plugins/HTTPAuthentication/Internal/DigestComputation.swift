/// The Digest arithmetic of RFC 7616 §3.4 (and RFC 2617 / RFC 2069 without `qop`), apart from any state: the
/// known-answer tests call it with the RFCs' own cnonce values.
struct DigestComputation: Sendable {
    /// An algorithm by its name in the challenge (case-insensitive), with or without `-sess`.
    struct Algorithm: Sendable, Hashable {
        var function: Hashing.Function
        var isSession: Bool

        init?(_ name: String?) {
            var name = (name ?? "MD5").uppercased()
            isSession = name.hasSuffix("-SESS")
            if isSession { name.removeLast(5) }
            switch name {
            case "MD5": function = .md5
            case "SHA-256": function = .sha256
            case "SHA-512-256": function = .sha512_256
            default: return nil
            }
        }
    }

    var algorithm: Algorithm
    var user: String
    var password: String
    var realm: String
    var nonce: String

    func hash(_ text: [UInt8]) throws -> String { Hashing.hex(try Hashing.hash(algorithm.function, text)) }
    func hash(_ text: String) throws -> String { try hash(Array(text.utf8)) }

    /// `H(user ":" realm)`, the name sent with `userhash=true` (RFC 7616 §3.4.4).
    /// - Throws: What ``Hashing/hash(_:_:)`` throws.
    func userHash() throws -> String { try hash("\(user):\(realm)") }

    /// The `response` value.
    /// - Parameters:
    ///   - method: The request method.
    ///   - uri: The `uri` value (the request-target).
    ///   - qop: `auth`, `auth-int` or `nil` (RFC 2069).
    ///   - nc: The nonce count, eight hex digits.
    ///   - cnonce: The client nonce.
    ///   - body: The entity body, for `auth-int`.
    /// - Returns: The `response` value, lower-case hex.
    /// - Throws: What ``Hashing/hash(_:_:)`` throws.
    func response(method: String, uri: String, qop: String?, nc: String, cnonce: String, body: [UInt8] = [])
        throws -> String
    {
        var ha1 = try hash("\(user):\(realm):\(password)")
        if algorithm.isSession { ha1 = try hash("\(ha1):\(nonce):\(cnonce)") }
        let ha2 = try qop == "auth-int" ? hash("\(method):\(uri):\(hash(body))") : hash("\(method):\(uri)")
        guard let qop else { return try hash("\(ha1):\(nonce):\(ha2)") }
        return try hash("\(ha1):\(nonce):\(nc):\(cnonce):\(qop):\(ha2)")
    }
}
