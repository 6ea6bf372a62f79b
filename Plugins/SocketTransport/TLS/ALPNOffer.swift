/// The protocols a TLS client offers by ALPN (RFC 7301), most preferred first: `http/1.1` alone by default, or
/// the ids of the configured ``HTTPCore/MultiplexedProtocol``s before it (`h2,http/1.1`).
struct ALPNOffer: Hashable, Sendable {
    /// The protocol ids in order.
    let identifiers: [String]
    /// The length-prefixed list `SSL_CTX_set_alpn_protos` takes.
    let wireFormat: [UInt8]

    /// An offer of `identifiers`, in order; ids longer than 255 bytes are left out (ALPN cannot carry them).
    init(_ identifiers: [String]) {
        self.identifiers = identifiers.filter { !$0.utf8.isEmpty && $0.utf8.count <= 255 }
        wireFormat = self.identifiers.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
    }

    /// `http/1.1` alone: what every connection offered before multiplexed protocols, and what a connection
    /// carrying a connection-bound handshake (NTLM) offers still.
    static let http1 = ALPNOffer(["http/1.1"])
}
