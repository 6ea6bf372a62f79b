#if canImport(Glibc)
import Glibc
#endif
import COpenSSL
import HTTPCore
import Synchronization

/// One OpenSSL client context (`SSL_CTX`) for one set of ``TLSOptions``, plus the sessions saved for resumption.
///
/// Settings: TLS 1.2 or later, OpenSSL security level 2 or higher (keys of at least 112 bits of strength, so RSA
/// and DH of 2048 bits or more, and no SHA-1 signatures; what Debian's OpenSSL, and so Debian's curl, uses), ALPN
/// `http/1.1`, no compression, an unexpected EOF reported as a normal end of stream (the HTTP framing decides
/// whether the body was complete), and, when validating, peer verification against the system store
/// (`SSL_CTX_set_default_verify_paths`) or ``TLSOptions/trustedCAFile``. The level is set here rather than left to
/// the system's `openssl.cnf`, so an `OPENSSL_CONF` that lowers it does not weaken the client (decision 0027).
final class TLSContext: @unchecked Sendable {  // the SSL_CTX is only read after init; sessions sit behind a Mutex
    /// The `SSL_CTX*`.
    let context: OpaquePointer
    /// Whether the chain and host name are checked.
    let validatesCertificate: Bool
    /// ``TLSOptions/pinnedPublicKeys``: checked after every handshake on this context.
    let pins: PublicKeyPins?
    /// The identity's password, kept for OpenSSL's default password callback.
    private let password: UnsafeMutablePointer<CChar>?
    private let sessions = Mutex<[String: SavedSession]>([:])
    private static let maxSessions = 256

    /// Builds the context.
    /// - Parameters:
    ///   - options: The TLS options it serves.
    ///   - alpn: The protocols offered by ALPN.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` when the CA file or the client
    ///   identity cannot be loaded.
    init(options: TLSOptions, alpn: ALPNOffer = .http1) throws {
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw ClientError(.internalError, stage: .transport, message: "Cannot create a TLS context",
                              underlying: OpenSSLError.drain())
        }
        self.context = context
        validatesCertificate = options.validatesCertificate
        pins = options.pinnedPublicKeys
        password = options.clientIdentity?.password.flatMap { strdup($0) }

        _ = c_openssl_ctx_set_min_proto_version(context, TLS1_2_VERSION)
        SSL_CTX_set_security_level(context, max(SSL_CTX_get_security_level(context), Self.minimumSecurityLevel))
        _ = SSL_CTX_set_options(context, c_openssl_op_ignore_unexpected_eof() | c_openssl_op_no_compression())
        _ = c_openssl_ctx_set_mode(context, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
        _ = SSL_CTX_set_alpn_protos(context, alpn.wireFormat, UInt32(alpn.wireFormat.count))
        // Read-ahead: one `recv` takes what the socket holds (up to OpenSSL's buffer) instead of a record's 5-byte
        // header and then its body, so a small response over TLS costs one read of the socket, not two. A
        // `WANT_READ` still means the socket was drained, which the edge-triggered wait relies on; bytes OpenSSL
        // holds are `hasPendingBytes` (`SSL_has_pending`), so a connection holding some is not reused.
        _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_READ_AHEAD, 1, nil)

        if options.validatesCertificate {
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            if let file = options.trustedCAFile {
                guard SSL_CTX_load_verify_locations(context, file, nil) == 1 else {
                    throw Self.configurationError("Cannot load the trusted CA file \(file)")
                }
            } else if SSL_CTX_set_default_verify_paths(context) != 1 {
                throw Self.configurationError("Cannot load the system CA store")
            }
        } else {
            SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        }
        if let identity = options.clientIdentity {
            try loadIdentity(identity)
        }
        ERR_clear_error()
    }

    deinit {
        SSL_CTX_free(context)
        if let password {
            memset(password, 0, strlen(password))
            free(password)
        }
    }

    /// The saved session for `key` (`host:port`), if any.
    func savedSession(for key: String) -> SavedSession? {
        sessions.withLock { $0[key] }
    }

    /// Saves a session for later connections to `key`, replacing an older one.
    func save(_ session: SavedSession, for key: String) {
        sessions.withLock { sessions in
            if sessions.count >= Self.maxSessions && sessions[key] == nil, let victim = sessions.keys.first {
                sessions[victim] = nil
            }
            sessions[key] = session
        }
    }

    private func loadIdentity(_ identity: ClientIdentity) throws {
        SSL_CTX_set_default_passwd_cb_userdata(context, password)
        switch identity.source {
        case .pem(let certificatePath, let privateKeyPath):
            guard SSL_CTX_use_certificate_chain_file(context, certificatePath) == 1 else {
                throw Self.configurationError("Cannot load the client certificate \(certificatePath)")
            }
            guard SSL_CTX_use_PrivateKey_file(context, privateKeyPath, SSL_FILETYPE_PEM) == 1 else {
                throw Self.configurationError("Cannot load the client private key \(privateKeyPath)")
            }
        case .pkcs12(let path):
            try loadPKCS12(path)
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw Self.configurationError("The client private key does not match the certificate")
        }
    }

    private func loadPKCS12(_ path: String) throws {
        guard let file = fopen(path, "rb") else {
            throw ClientError(.invalidConfiguration, stage: .transport, message: "Cannot open the PKCS#12 file \(path)",
                              underlying: SyscallError.last("fopen"))
        }
        let bundle = d2i_PKCS12_fp(file, nil)
        fclose(file)
        guard let bundle else { throw Self.configurationError("Cannot read the PKCS#12 file \(path)") }
        defer { PKCS12_free(bundle) }
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var chain: OpaquePointer?
        guard PKCS12_parse(bundle, password, &key, &certificate, &chain) == 1 else {
            throw Self.configurationError("Cannot open the PKCS#12 file \(path) (wrong password?)")
        }
        defer {
            EVP_PKEY_free(key)
            X509_free(certificate)
            if let chain { c_openssl_sk_x509_pop_free(chain) }
        }
        guard SSL_CTX_use_certificate(context, certificate) == 1, SSL_CTX_use_PrivateKey(context, key) == 1 else {
            throw Self.configurationError("Cannot use the identity in \(path)")
        }
        if let chain {
            for index in 0..<c_openssl_sk_x509_num(chain) {
                _ = c_openssl_ctx_add1_chain_cert(context, c_openssl_sk_x509_value(chain, index))
            }
        }
    }

    /// OpenSSL's security level 2: 112-bit keys and no SHA-1 signatures (Debian's default); TLS 1.2 is set apart.
    static let minimumSecurityLevel: Int32 = 2

    private static func configurationError(_ message: String) -> ClientError {
        ClientError(.invalidConfiguration, stage: .transport, message: message, underlying: OpenSSLError.drain())
    }
}

/// An `SSL_SESSION` kept for resumption; OpenSSL reference-counts it and it is never changed after saving.
final class SavedSession: @unchecked Sendable {  // immutable; SSL_SESSION's refcount is atomic
    let session: OpaquePointer

    init(_ session: OpaquePointer) {
        self.session = session
    }

    deinit {
        SSL_SESSION_free(session)
    }
}

/// The ``TLSContext`` for each distinct ``TLSOptions`` and ALPN offer, made on first use and kept for the
/// transport's life.
final class TLSContextCache: Sendable {
    private struct Key: Hashable {
        var options: TLSOptions
        var alpn: ALPNOffer
    }

    private let contexts = Mutex<[Key: TLSContext]>([:])

    /// The context for `options` offering `alpn`, made now if needed.
    /// - Throws: As ``TLSContext/init(options:alpn:)``.
    func context(for options: TLSOptions, offering alpn: ALPNOffer = .http1) throws -> TLSContext {
        let key = Key(options: options, alpn: alpn)
        return try contexts.withLock { contexts in
            if let context = contexts[key] { return context }
            let context = try TLSContext(options: options, alpn: alpn)
            contexts[key] = context
            return context
        }
    }

    /// Drops every context (connections keep theirs alive until they close).
    func removeAll() {
        contexts.withLock { $0 = [:] }
    }
}
