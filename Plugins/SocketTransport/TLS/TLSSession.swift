#if canImport(Glibc)
import Glibc
#endif
import COpenSSL
import FoundationEssentials
import HTTPCore

/// The no-SIGPIPE socket BIO method, made once for the process.
private enum SocketBIO {
    nonisolated(unsafe) static let method: OpaquePointer? = c_openssl_make_socket_bio_method()
}

/// One client TLS connection (`SSL*`) over a non-blocking socket, or over another TLS session (TLS to an origin
/// inside a `CONNECT` tunnel through an HTTPS proxy), driven by ``Connection``.
///
/// Layered over an outer session, the inner `SSL*` reads and writes through an OpenSSL SSL filter BIO
/// (`BIO_f_ssl`) around the outer `SSL*`: the outer session's `WANT_READ`/`WANT_WRITE` become the filter BIO's
/// retry flags, so the inner session reports them unchanged and the connection waits on the one socket below both.
///
/// The socket BIO sends with `MSG_NOSIGNAL`, so no TLS write ever raises `SIGPIPE` and the process's signal
/// disposition is left alone. `WANT_READ`/`WANT_WRITE` come back as ``IOResult/wouldBlock(_:)`` and the
/// connection waits on its ``IOHandle``. Confined to the connection's current owner, like the socket.
final class TLSSession {
    private let ssl: OpaquePointer
    /// The socket BIO at the bottom (the outer session's for a layered session): where the last errno is kept.
    private let bio: OpaquePointer
    /// The session this one runs inside, kept alive (and freed after this one) while the inner `SSL*` uses it.
    private let outer: TLSSession?
    private let context: TLSContext
    private let sessionKey: String
    private let peer: String
    /// Pins beyond the context's (``POSIXTransport/Configuration/pinnedPublicKeys`` for this host).
    private let hostPins: PublicKeyPins?
    private var sessionSaved = false

    /// Prepares a client session: SNI for host names, host name or IP checking when validating, and the saved
    /// session for `host:port` when there is one.
    ///
    /// Server identity follows RFC 9525: a host name is sent (SNI) and compared without its trailing dot, against
    /// DNS SANs only (never the subject's CN), a wildcard matching only as the whole left-most label
    /// (`*.a.b` matches `x.a.b`, not `a.b`, `x.y.a.b`, nor `f*.a.b` anything); an IP literal is compared with
    /// IP SANs only.
    /// - Parameters:
    ///   - context: The TLS context.
    ///   - fd: The connected socket.
    ///   - host: The peer's host name or IP literal.
    ///   - port: The peer's port (the session cache key).
    ///   - outer: The established session to run inside, or `nil` to run on the socket.
    ///   - hostPins: Public-key pins for this host beyond the context's, checked after the handshake.
    /// - Throws: ``ClientError`` when OpenSSL cannot allocate the session.
    init(
        context: TLSContext, fd: Int32, host: String, port: Int, over outer: TLSSession? = nil,
        hostPins: PublicKeyPins? = nil
    ) throws {
        guard let method = SocketBIO.method, let ssl = SSL_new(context.context) else {
            throw ClientError(.internalError, stage: .transport, message: "Cannot create a TLS session",
                              underlying: OpenSSLError.drain())
        }
        let made: OpaquePointer?
        if let outer {
            made = BIO_new(BIO_f_ssl())
            if let made { _ = BIO_ctrl(made, BIO_C_SET_SSL, Int(BIO_NOCLOSE), UnsafeMutableRawPointer(outer.ssl)) }
        } else {
            made = c_openssl_new_socket_bio(method, fd)
        }
        guard let made else {
            SSL_free(ssl)
            throw ClientError(.internalError, stage: .transport, message: "Cannot create a TLS session",
                              underlying: OpenSSLError.drain())
        }
        SSL_set_bio(ssl, made, made)
        SSL_set_connect_state(ssl)
        self.ssl = ssl
        self.bio = outer?.bio ?? made
        self.outer = outer
        self.context = context
        sessionKey = host + ":" + String(port)
        peer = sessionKey
        self.hostPins = hostPins
        let isIPLiteral = SocketAddress.isLiteral(host)
        let name = Self.referenceIdentifier(host)
        if !isIPLiteral && !name.isEmpty { _ = c_openssl_set_tlsext_host_name(ssl, name) }
        if context.validatesCertificate {
            let parameters = SSL_get0_param(ssl)
            X509_VERIFY_PARAM_set_hostflags(parameters, c_openssl_rfc9525_host_flags())
            if isIPLiteral {
                _ = X509_VERIFY_PARAM_set1_ip_asc(parameters, host)
            } else {
                _ = SSL_set1_host(ssl, name)
            }
        }
        if let saved = context.savedSession(for: sessionKey) {
            _ = SSL_set_session(ssl, saved.session)
        }
    }

    deinit {
        SSL_free(ssl)
    }

    /// Advances the handshake.
    /// - Returns: `.bytes(1)` when done, `.wouldBlock` to wait, or `.failed` with
    ///   ``ClientError/Code/certificateInvalid`` or ``ClientError/Code/tlsHandshakeFailed``.
    func handshake() -> IOResult {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return checkPins() }
        let code = SSL_get_error(ssl, result)
        switch code {
        case SSL_ERROR_WANT_READ: return .wouldBlock(.read)
        case SSL_ERROR_WANT_WRITE: return .wouldBlock(.write)
        default: break
        }
        let verify = SSL_get_verify_result(ssl)
        if context.validatesCertificate && verify != Int(X509_V_OK) {
            let reason = String(cString: X509_verify_cert_error_string(verify))
            return .failed(ClientError(.certificateInvalid, stage: .transport,
                                       message: "certificate verify failed for \(peer): \(reason)",
                                       underlying: OpenSSLError.drain()))
        }
        if code == SSL_ERROR_SYSCALL || code == SSL_ERROR_ZERO_RETURN {
            let errno = c_openssl_socket_bio_last_errno(bio)
            ERR_clear_error()
            return .failed(ClientError(
                .tlsHandshakeFailed, stage: .transport,
                message: "The connection to \(peer) closed during the TLS handshake",
                underlying: errno == 0 ? nil : SyscallError(errno: errno, operation: "recv")))
        }
        let queue = OpenSSLError.drain()
        return .failed(ClientError(.tlsHandshakeFailed, stage: .transport,
                                   message: "TLS handshake with \(peer) failed: \(queue.firstReason ?? "unknown")",
                                   underlying: queue))
    }

    /// The host name as RFC 9525 compares it (and RFC 6066 sends it): without one trailing dot.
    /// A host of only a dot stays as it is: an empty name would make OpenSSL skip the check.
    static func referenceIdentifier(_ host: String) -> String {
        host.count > 1 && host.hasSuffix(".") ? String(host.dropLast()) : host
    }

    /// After a handshake: `.bytes(1)` when the peer's key matches every pin set given (or none is), otherwise
    /// ``ClientError/Code/publicKeyPinMismatch`` naming the key's `sha256//` pin (public, so safe to print).
    private func checkPins() -> IOResult {
        let sets = [context.pins, hostPins].compactMap { $0 }
        guard !sets.isEmpty else { return .bytes(1) }
        var digest = [UInt8](repeating: 0, count: 32)
        var needed: Int32 = 0
        var key = [UInt8](repeating: 0, count: 1024)
        var length = c_openssl_peer_spki(ssl, &key, Int32(key.count), &needed, &digest)
        if length == -2 {
            key = [UInt8](repeating: 0, count: Int(needed))
            length = c_openssl_peer_spki(ssl, &key, Int32(key.count), &needed, &digest)
        }
        ERR_clear_error()
        guard length > 0 else {
            return .failed(ClientError(.publicKeyPinMismatch, stage: .transport,
                                       message: "\(peer) presented no public key to compare with the pinned keys"))
        }
        key.removeSubrange(Int(length)...)
        guard sets.allSatisfy({ $0.matches(publicKey: key, sha256: digest) }) else {
            let pin = "sha256//" + Data(digest).base64EncodedString()
            return .failed(ClientError(.publicKeyPinMismatch, stage: .transport,
                                       message: "The public key of \(peer) (\(pin)) matches none of the pinned keys"))
        }
        return .bytes(1)
    }

    /// Reads decrypted bytes.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> IOResult {
        ERR_clear_error()
        var read = 0
        if SSL_read_ex(ssl, buffer, count, &read) == 1 { return .bytes(read) }
        return failure(of: "read")
    }

    /// Writes bytes; with partial writes enabled, may write fewer than `count`.
    func write(_ bytes: UnsafeRawPointer, count: Int) -> IOResult {
        ERR_clear_error()
        var written = 0
        if SSL_write_ex(ssl, bytes, count, &written) == 1 { return .bytes(written) }
        return failure(of: "send")
    }

    /// The protocol the server chose by ALPN (`h2`, `http/1.1`), or `nil` when it chose none.
    var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// Whether OpenSSL holds bytes not read yet, decrypted or not (with read-ahead it may hold records it has not
    /// processed), in this session or the one it runs inside.
    var hasPendingBytes: Bool { SSL_has_pending(ssl) == 1 || (outer?.hasPendingBytes ?? false) }

    /// Saves the session for resumption, once per connection, when OpenSSL says it can be resumed. Call it after a
    /// response was read, so TLS 1.3 tickets (sent after the handshake) have arrived.
    func saveSessionIfResumable() {
        guard !sessionSaved else { return }
        sessionSaved = true
        guard let session = SSL_get1_session(ssl) else { return }
        if SSL_SESSION_is_resumable(session) == 1 {
            context.save(SavedSession(session), for: sessionKey)
        } else {
            SSL_SESSION_free(session)
        }
    }

    /// Sends `close_notify` once (then the outer session's), without waiting for the peer's; errors are ignored.
    func sendCloseNotify() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
        outer?.sendCloseNotify()
    }

    private func failure(of operation: String) -> IOResult {
        let code = SSL_get_error(ssl, 0)
        switch code {
        case SSL_ERROR_WANT_READ:
            return .wouldBlock(.read)
        case SSL_ERROR_WANT_WRITE:
            return .wouldBlock(.write)
        case SSL_ERROR_ZERO_RETURN:
            return .endOfStream
        case SSL_ERROR_SYSCALL:
            let errno = c_openssl_socket_bio_last_errno(bio)
            ERR_clear_error()
            if errno == 0 { return .endOfStream }
            return .failed(Socket.lost(SyscallError(errno: errno, operation: operation), sending: operation == "send"))
        default:
            let queue = OpenSSLError.drain()
            return .failed(ClientError(operation == "send" ? .sendFailed : .receiveFailed, stage: .transport,
                                       message: "TLS error on the connection to \(peer): \(queue.firstReason ?? "")",
                                       underlying: queue))
        }
    }
}
