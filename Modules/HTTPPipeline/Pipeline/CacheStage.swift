import FoundationEssentials
import HTTPCore

/// The cache hooks: look up, revalidate and store `GET` responses through the client's ``CacheStore``.
///
/// The rule is ASIHTTPRequest's default policy, "ask the server if modified when stale": a fresh entry is
/// used without a request; a stale one is revalidated with `If-None-Match` / `If-Modified-Since`, and a 304
/// answers from the entry. Only `200` responses are stored, never with `Cache-Control: no-store` or `no-cache`
/// or `Pragma: no-cache` (as tokens, fixing ASIHTTPRequest quirk 2). Freshness comes from `max-age`
/// (`max-age=0` is stale at once), else `Expires`; without either an entry must be revalidated.
struct CacheStage: Sendable {
    let store: (any CacheStore)?
    let maxEntrySize: Int

    var isEnabled: Bool { store != nil }

    /// The URL without its fragment, its `user:password` (keys may end up in file names) and one trailing `/`.
    static func key(for url: URL) -> String {
        var key = url.absoluteString
        if url.user != nil || url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.user = nil
            components.password = nil
            key = components.string ?? key
        }
        if let hash = key.firstIndex(of: "#") { key = String(key[..<hash]) }
        if key.hasSuffix("/") { key.removeLast() }
        return key
    }

    func lookup(_ request: Request) async throws -> CachedResponse? {
        guard let store, request.method == .get, !request.options.cachePolicy.contains(.doNotReadFromCache) else {
            return nil
        }
        return try await staged(.cache) { try await store.cachedResponse(forKey: Self.key(for: request.url)) }
    }

    static func addConditionalFields(from cached: CachedResponse, to request: inout Request) {
        if request.headerFields[.ifNoneMatch] == nil, let etag = cached.headerFields[.eTag] {
            request.headerFields[.ifNoneMatch] = etag
        }
        if request.headerFields[.ifModifiedSince] == nil, let modified = cached.headerFields[.lastModified] {
            request.headerFields[.ifModifiedSince] = modified
        }
    }

    /// Stores the entry again with the freshness a 304 announced, and returns it.
    func revalidated(_ cached: CachedResponse, by response: Response, for request: Request) async throws
        -> CachedResponse
    {
        var entry = cached
        let now = Date()
        for field in response.headerFields where field.name != .contentLength {
            entry.headerFields[field.name] = field.value
        }
        entry.storedAt = now
        entry.expiresAt = Self.expiry(of: entry.headerFields, now: now)
        if let store, !request.options.cachePolicy.contains(.doNotWriteToCache) {
            try await staged(.cache) { try await store.store(entry, forKey: Self.key(for: request.url)) }
        }
        return entry
    }

    /// The response body, wrapped so that a storable response is stored once it has been read completely.
    func body(of response: Response, for request: Request) -> ResponseBody {
        guard let store, request.method == .get, response.status == .ok,
            !request.options.cachePolicy.contains(.doNotWriteToCache), Self.allowsStoring(response.headerFields),
            (response.body.expectedLength ?? 0) <= Int64(maxEntrySize)
        else { return response.body }
        let now = Date()
        var fields = response.headerFields
        fields[.contentLength] = nil
        fields[.transferEncoding] = nil
        let entry = CachedResponse(status: response.status, headerFields: fields, body: [], storedAt: now,
                                   expiresAt: Self.expiry(of: response.headerFields, now: now))
        let source = CachingBodySource(base: response.body.source, entry: entry, key: Self.key(for: request.url),
                                       store: store, maxSize: maxEntrySize)
        return ResponseBody(expectedLength: response.body.expectedLength, source: source)
    }

    static func allowsStoring(_ fields: HTTPFields) -> Bool {
        let cacheControl = directives(fields[values: .cacheControl])
        if cacheControl.keys.contains("no-store") || cacheControl.keys.contains("no-cache") { return false }
        return !directives(fields[values: Self.pragma]).keys.contains("no-cache")
    }

    static let pragma = HTTPField.Name("Pragma")!

    static func expiry(of fields: HTTPFields, now: Date) -> Date? {
        if let maxAge = directives(fields[values: .cacheControl])["max-age"].flatMap({ $0.flatMap { Int($0) } }) {
            return now.addingTimeInterval(TimeInterval(maxAge))
        }
        return fields[.expires].flatMap(CookieDateParser.date(from:))
    }

    /// Parses comma-separated directives such as `max-age=60, no-cache` into lower-cased names and values.
    static func directives(_ values: [String]) -> [String: String?] {
        var result: [String: String?] = [:]
        for value in values {
            for directive in value.split(separator: ",") {
                let pair = directive.split(separator: "=", maxSplits: 1)
                guard let name = pair.first?.trimmingOWS().lowercased(), !name.isEmpty else { continue }
                let argument = pair.count == 2 ? String(pair[1].trimmingOWS().filter { $0 != "\"" }) : nil
                result[name] = argument
            }
        }
        return result
    }

    static func response(from cached: CachedResponse) -> Response {
        Response(status: cached.status, headerFields: cached.headerFields, body: ResponseBody(bytes: cached.body))
    }
}
