public import FoundationEssentials

/// Downloads a PAC file for ``PACProxyResolver``, so that the plug-in needs no HTTP stack of its own.
///
/// ## Implementation requirements
/// - Fetch **directly**, never through a proxy (the PAC file decides the proxies; fetching it through them would
///   loop). ``TransportPACFetcher`` does this with a transport that has no proxy resolver.
/// - Return the response's status and at most `maxBytes + 1` body bytes; the resolver accepts only `200` and at
///   most `maxBytes`.
/// - Throw for a failed connection; the resolver then routes directly and logs one warning.
///
/// ## Implement a custom fetcher
/// ```swift
/// struct Canned: PACScriptFetcher {
///     func fetch(_ url: URL, maxBytes: Int) async throws -> PACScriptDownload {
///         PACScriptDownload(status: 200, body: Array("function FindProxyForURL(u, h) { return 'DIRECT'; }".utf8))
///     }
/// }
/// ```
public protocol PACScriptFetcher: Sendable {
    /// Downloads the PAC file at `url`.
    /// - Parameters:
    ///   - url: The PAC file's URL.
    ///   - maxBytes: The largest body accepted; a fetcher may stop reading after `maxBytes + 1` bytes.
    /// - Returns: The status and the body.
    /// - Throws: Any error of the download.
    func fetch(_ url: URL, maxBytes: Int) async throws -> PACScriptDownload
}

/// What a ``PACScriptFetcher`` got: the status and the body bytes.
public struct PACScriptDownload: Sendable, Hashable {
    /// The response's status code.
    public var status: Int
    /// The body, undecoded.
    public var body: [UInt8]

    /// Creates a download.
    /// - Parameters:
    ///   - status: The status code.
    ///   - body: The body bytes.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}
