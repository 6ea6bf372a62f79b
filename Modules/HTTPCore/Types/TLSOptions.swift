/// TLS settings for one request's connections.
///
/// Connections are pooled per distinct set of options, so relaxing validation for one request never affects
/// another request's connections (ASIHTTPRequest bug #263).
public struct TLSOptions: Sendable, Hashable {
    /// Whether the server's certificate chain and host name are checked (`validatesSecureCertificate`).
    /// Default `true`. Turn off only for test servers.
    public var validatesCertificate: Bool
    /// A PEM file of CA certificates to trust instead of the system store.
    public var trustedCAFile: String?
    /// A client certificate to present when the server asks for one.
    public var clientIdentity: ClientIdentity?
    /// The public keys the server may present (curl's `--pinnedpubkey`), checked after the chain and name; a
    /// server whose key matches none fails with ``ClientError/Code/publicKeyPinMismatch``. Default `nil`: no pins.
    /// Transports may add pins of their own per host (`POSIXTransport.Configuration.pinnedPublicKeys`).
    public var pinnedPublicKeys: PublicKeyPins?

    /// Creates TLS options; the defaults validate against the system's CA store.
    /// - Parameters:
    ///   - validatesCertificate: Whether to check the chain and host name.
    ///   - trustedCAFile: A PEM file of CA certificates to trust instead of the system store.
    ///   - clientIdentity: A client certificate to present.
    ///   - pinnedPublicKeys: The public keys the server may present, or `nil` for any key.
    public init(
        validatesCertificate: Bool = true, trustedCAFile: String? = nil, clientIdentity: ClientIdentity? = nil,
        pinnedPublicKeys: PublicKeyPins? = nil
    ) {
        self.validatesCertificate = validatesCertificate
        self.trustedCAFile = trustedCAFile
        self.clientIdentity = clientIdentity
        self.pinnedPublicKeys = pinnedPublicKeys
    }
}

/// A client certificate and its private key (ASIHTTPRequest's `clientCertificateIdentity`).
public struct ClientIdentity: Sendable, Hashable, CustomStringConvertible {
    /// Where the certificate and key are kept.
    public enum Source: Sendable, Hashable {
        /// A PEM certificate (optionally followed by its chain) and a PEM private key.
        case pem(certificatePath: String, privateKeyPath: String)
        /// A PKCS#12 bundle.
        case pkcs12(path: String)
    }

    /// Where the certificate and key are kept.
    public var source: Source
    /// The password of the key or bundle, if any. Never printed.
    public var password: String?

    /// Creates an identity.
    /// - Parameters:
    ///   - source: Where the certificate and key are kept.
    ///   - password: The password of the key or bundle, if any.
    public init(_ source: Source, password: String? = nil) {
        self.source = source
        self.password = password
    }

    /// The paths, with the password redacted.
    public var description: String {
        switch source {
        case .pem(let cert, let key): "ClientIdentity(pem: \(cert), key: \(key), password: <redacted>)"
        case .pkcs12(let path): "ClientIdentity(pkcs12: \(path), password: <redacted>)"
        }
    }
}
