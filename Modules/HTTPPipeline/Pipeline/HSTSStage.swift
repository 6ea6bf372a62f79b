import FoundationEssentials
import HTTPCore

/// The pipeline's two HSTS steps (RFC 6797 §8): upgrade an `http` request to a known HSTS host before it is sent,
/// and record the `Strict-Transport-Security` field of a secure response. Both are no-ops without a store.
enum HSTSStage {
    /// `request` with its scheme changed to `https` when `store` knows its host; otherwise unchanged.
    ///
    /// Only the scheme changes: an explicit port is kept, as curl does (`http://host:8080/` becomes
    /// `https://host:8080/`; `http://host/` becomes `https://host/`, port 443). IP literals are never upgraded.
    /// - Parameters:
    ///   - request: The hop about to be prepared.
    ///   - store: The client's HSTS store, if any.
    /// - Returns: The request to send.
    /// - Throws: ``ClientError`` from the store, with stage `hsts`.
    static func upgraded(_ request: Request, store: (any HSTSStore)?) async throws -> Request {
        guard let store, !store.isKnownEmpty, request.url.scheme?.lowercased() == "http",
            let host = request.url.host(percentEncoded: false), !host.isEmpty, !Cookie.isIPAddress(host)
        else { return request }
        guard try await staged(.hsts, { try await store.entry(covering: host) }) != nil,
            var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        else { return request }
        components.scheme = "https"
        guard let url = components.url else { return request }
        var upgraded = request
        upgraded.url = url
        return upgraded
    }

    /// Records the first `Strict-Transport-Security` field of `response` in `store`, when the response may set
    /// one: it came over `https` with the certificate validated (RFC 6797 §8.1: not with certificate errors,
    /// which a request that does not validate cannot rule out), from a host name rather than an IP literal.
    /// - Parameters:
    ///   - response: A response from the network (not from the cache).
    ///   - hop: The request it answers.
    ///   - store: The client's HSTS store, if any.
    ///   - now: The time it was received.
    /// - Throws: ``ClientError`` from the store, with stage `hsts`.
    static func record(_ response: Response, for hop: Request, store: (any HSTSStore)?, now: Date = Date())
        async throws
    {
        guard let store, hop.url.scheme?.lowercased() == "https", hop.options.tls.validatesCertificate,
            let field = response.headerFields[values: .strictTransportSecurity].first,
            let host = hop.url.host(percentEncoded: false), !host.isEmpty, !Cookie.isIPAddress(host),
            let directives = StrictTransportSecurity.parse(field)
        else { return }
        let entry = HSTSEntry(host: host, includesSubdomains: directives.includesSubdomains,
                              expires: now.addingTimeInterval(Double(directives.maxAge)))
        try await staged(.hsts) { try await store.update(entry) }
    }
}
