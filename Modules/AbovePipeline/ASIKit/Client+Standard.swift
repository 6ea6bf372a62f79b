import BrotliCodec
import GzipCodec
import HTTPAuthentication
public import HTTPPipeline
import PublicSuffix
public import SocketTransport
import ZstdCodec

extension Client {
    /// A ready client with the everyday stack: ``POSIXTransport`` (sockets and OpenSSL), deflate and gzip
    /// (``ZlibContentCodec``), brotli and Zstandard (``BrotliContentCodec``, ``ZstdContentCodec``, each only when
    /// its library loads, so `Accept-Encoding` is `deflate, gzip, br, zstd` on a machine with both), Digest and
    /// NTLM (``DigestAuthenticator``, ``NTLMAuthenticator``; Basic and Bearer are built in), and the in-memory
    /// defaults, an in-memory cookie jar and session credential store.
    /// Cookies for public suffixes (`co.uk`, `github.io`) are refused with libpsl's list (the `PublicSuffix`
    /// plug-in) unless `configuration` brings its own ``Client/Configuration/publicSuffixes``.
    ///
    /// ```swift
    /// import ASIKit
    ///
    /// let client = Client.standard()
    /// ```
    ///
    /// Anything else (a cache, a keyring, a bandwidth limit, a proxy resolver) is added by building the `Client`
    /// yourself; this is the composition root written out for the common case, and the only code in `ASIKit`
    /// (decision 0007).
    /// - Parameters:
    ///   - transport: The POSIX transport's settings (connections per host, idle timeout, proxy resolver).
    ///   - configuration: Client-wide settings (User-Agent, authentication handler, logger).
    /// - Returns: The client. Call ``Client/shutdown()`` when done with it.
    public static func standard(
        transport: POSIXTransport.Configuration = .init(),
        configuration: Configuration = .init()
    ) -> Client {
        var configuration = configuration
        if configuration.publicSuffixes == nil { configuration.publicSuffixes = .libpsl() }
        return Client(
            transport: .posix(transport), codecs: [.zlib(), .brotli(), .zstd()], authenticators: [.digest(), .ntlm()],
            configuration: configuration)
    }

}
