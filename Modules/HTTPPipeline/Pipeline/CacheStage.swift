import FoundationEssentials
import HTTPCore

/// The cache hooks: look up, revalidate and store `GET` responses through the client's ``CacheStore``.
///
/// The rule is ASIHTTPRequest's default policy, "ask the server if modified when stale": a fresh entry is
/// used without a request; a stale one is revalidated with `If-None-Match` / `If-Modified-Since`, and a 304
/// answers from the entry. Only `200` responses are stored, never with `Cache-Control: no-store` or `no-cache`
/// or `Pragma: no-cache` (as tokens, fixing ASIHTTPRequest quirk 2). Freshness comes from `max-age`
/// (`max-age=0` is stale at once), else `Expires`; without either an entry must be revalidated.
///
/// The store is used head first: a lookup reads the head, the body is opened only for a fresh hit or after a
/// 304, a 304 updates the head alone, and a body streams into a ``CacheEntryWriter`` as the caller reads it, so
/// the pipeline never holds a whole body. The entry-size cap is the store's.
struct CacheStage: Sendable {
    let store: (any CacheStore)?

    var isEnabled: Bool { store != nil }

    /// The URL without its fragment, its `user:password` (keys may end up in file names) and one trailing `/`.
    static func key(for url: URL) -> String {
        var key = (url.removingUserInfo() ?? url).absoluteString
        if let hash = key.firstIndex(of: "#") { key = String(key[..<hash]) }
        if key.hasSuffix("/") { key.removeLast() }
        return key
    }

    /// Looks the entry's head up; its body stays unopened.
    func lookup(_ request: Request) async throws -> CacheEntry? {
        guard let store, request.method == .get, !request.options.cachePolicy.contains(.doNotReadFromCache) else {
            return nil
        }
        return try await staged(.cache) { try await store.entry(forKey: Self.key(for: request.url)) }
    }

    static func addConditionalFields(from cached: CachedResponseHead, to request: inout Request) {
        if request.headerFields[.ifNoneMatch] == nil, let etag = cached.headerFields[.eTag] {
            request.headerFields[.ifNoneMatch] = etag
        }
        if request.headerFields[.ifModifiedSince] == nil, let modified = cached.headerFields[.lastModified] {
            request.headerFields[.ifModifiedSince] = modified
        }
    }

    /// Updates the entry's head with the fields and freshness a 304 announced (never its body), and returns it.
    func revalidated(_ cached: CachedResponseHead, by response: Response, for request: Request) async throws
        -> CachedResponseHead
    {
        var head = cached
        let now = Date()
        for field in response.headerFields where field.name != .contentLength {
            head.headerFields[field.name] = field.value
        }
        head.storedAt = now
        head.expiresAt = Self.expiry(of: head.headerFields, now: now)
        if let store, !request.options.cachePolicy.contains(.doNotWriteToCache) {
            let refreshed = head
            try await staged(.cache) {
                try await store.updateHead(refreshed, forKey: Self.key(for: request.url), replacing: cached)
            }
        }
        return head
    }

    /// Removes the entry a request would have stored, if any.
    func removeEntry(for request: Request) async throws {
        guard let store else { return }
        try await staged(.cache) { try await store.removeEntry(forKey: Self.key(for: request.url)) }
    }

    /// Opens a cached entry's body; `nil` when the store no longer has it.
    static func open(_ entry: CacheEntry) async throws -> ResponseBody? {
        try await staged(.cache) { try await entry.body.open() }
    }

    /// The response body, wrapped so that a storable response streams into a cache writer as it is read and is
    /// committed at its end. `hop` is the request as sent, whose fields the response's `Vary` may name.
    func body(of response: Response, for hop: Request) async throws -> ResponseBody {
        guard let store, hop.method == .get, response.status == .ok,
            !hop.options.cachePolicy.contains(.doNotWriteToCache), Self.allowsStoring(response.headerFields)
        else { return response.body }
        let now = Date()
        var fields = response.headerFields
        fields[.contentLength] = nil
        fields[.transferEncoding] = nil
        let head = CachedResponseHead(
            status: response.status, headerFields: fields, storedAt: now,
            expiresAt: Self.expiry(of: response.headerFields, now: now),
            storagePolicy: hop.options.cacheStoragePolicy,
            varyingRequestFields: Self.varyingRequestFields(of: hop, named: response.headerFields))
        let key = Self.key(for: hop.url)
        let expectedLength = response.body.expectedLength
        let writer: (any CacheEntryWriter)?
        do {
            writer = try await staged(.cache) {
                try await store.makeWriter(forKey: key, head: head, expectedLength: expectedLength)
            }
        } catch {
            await response.body.discard()
            throw error
        }
        guard let writer else { return response.body }
        return ResponseBody(expectedLength: expectedLength,
                            source: CachingBodySource(base: response.body.source, writer: writer))
    }

    /// The request's values of the fields the response's `Vary` names (`*` names none).
    static func varyingRequestFields(of request: Request, named responseFields: HTTPFields) -> HTTPFields {
        var varying = HTTPFields()
        for value in responseFields[values: .vary] {
            for token in value.split(separator: ",") {
                guard let name = HTTPField.Name(String(token.trimmingOWS())), varying[name] == nil else { continue }
                for field in request.headerFields where field.name == name { varying.append(field) }
            }
        }
        return varying
    }

    /// Whether a response may be stored: not `no-store`, `no-cache` or `Pragma: no-cache`, and not varying on `*`
    /// or on credentials (`Authorization`, `Proxy-Authorization`, `Cookie`): the entry would have to keep their
    /// values to tell requests apart, and a cache never keeps a secret.
    static func allowsStoring(_ fields: HTTPFields) -> Bool {
        let cacheControl = directives(fields[values: .cacheControl])
        if cacheControl.keys.contains("no-store") || cacheControl.keys.contains("no-cache") { return false }
        if directives(fields[values: Self.pragma]).keys.contains("no-cache") { return false }
        let varying = directives(fields[values: .vary]).keys
        return !varying.contains { $0 == "*" || Self.secretFields.contains($0) }
    }

    /// Request fields whose values a cache entry must never keep.
    static let secretFields: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// Whether an entry may answer without asking the server: fresh, and not varying on request fields. Matching
    /// `Vary` against the request is the cache engine's (issue 13); until then an entry that varies is always
    /// revalidated, so it is never served to a request it was not made for.
    static func answersWithoutAsking(_ head: CachedResponseHead, at date: Date) -> Bool {
        head.isFresh(at: date) && head.headerFields[values: .vary].isEmpty
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

    static func response(from head: CachedResponseHead, body: ResponseBody) -> Response {
        Response(status: head.status, headerFields: head.headerFields, body: body)
    }
}
