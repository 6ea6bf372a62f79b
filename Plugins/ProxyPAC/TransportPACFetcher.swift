public import FoundationEssentials
public import HTTPCore
import Logging

/// Fetches PAC files with a ``HTTPCore/Transport``: one `GET`, no redirects, no cookies, no cache.
///
/// Give it a transport **without** a proxy resolver (the PAC file is fetched directly, never through the proxies
/// it chooses).
public struct TransportPACFetcher: PACScriptFetcher {
    /// The transport the PAC file is fetched with.
    public let transport: any Transport
    /// The longest a fetch may take.
    public var timeout: Duration

    /// Creates a fetcher.
    /// - Parameters:
    ///   - transport: A transport with no proxy resolver.
    ///   - timeout: The longest a fetch may take; 10 seconds by default.
    public init(transport: any Transport, timeout: Duration = .seconds(10)) {
        self.transport = transport
        self.timeout = timeout
    }

    /// Sends `GET url` and reads the body of a `200` answer (at most `maxBytes`).
    /// - Parameters:
    ///   - url: The PAC file's URL.
    ///   - maxBytes: The largest body accepted.
    /// - Returns: The status and the body.
    /// - Throws: The transport's error, or `ClientError` `.protocolViolation` for a body over `maxBytes`.
    public func fetch(_ url: URL, maxBytes: Int) async throws -> PACScriptDownload {
        var options = RequestOptions()
        options.timeout = timeout
        let request = Request(url: url, options: options)
        let context = RequestContext(logger: Logger(label: "ProxyPAC.fetch") { _ in SwiftLogNoOpLogHandler() })
        let response = try await transport.send(request, context: context)
        let status = Int(response.status.code)
        guard status == 200 else {
            await response.body.discard()
            return PACScriptDownload(status: status, body: [])
        }
        let body = try await response.body.collect(upTo: maxBytes)
        return PACScriptDownload(status: status, body: body)
    }
}
