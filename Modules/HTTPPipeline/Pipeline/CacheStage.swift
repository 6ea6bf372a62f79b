import FoundationEssentials
import HTTPCore

/// The cache engine's I/O: looks entries up, revalidates, stores and invalidates through the client's
/// ``CacheStore``, under ASIHTTPRequest's cache policies and RFC 9111's rules for a private cache.
///
/// The decision what to do with an entry is ``CacheDecision``'s and the freshness arithmetic
/// ``CacheFreshness``'s. The store is used head first: a lookup reads the head, the body is opened only when the
/// entry answers, a 304 updates the head alone, and a body streams into a ``CacheEntryWriter`` as the caller reads
/// it, so the pipeline never holds a whole body. The entry-size cap is the store's. Entries keep decoded bodies
/// (as ASIHTTPRequest did): a body whose content codings the client's codecs undo is stored decoded, under a head
/// without `Content-Encoding`, so a response served from the cache needs no decoding.
struct CacheStage: Sendable {
    let store: (any CacheStore)?
    let configuration: Client.CacheConfiguration
    /// The client's content codecs, which decode a body for the store.
    var codecs: [any ContentCodec] = []

    var isEnabled: Bool { store != nil }

    /// The URL without its fragment, its `user:password` (keys may end up in file names) and one trailing `/`.
    static func key(for url: URL) -> String {
        var key = (url.removingUserInfo() ?? url).absoluteString
        if let hash = key.firstIndex(of: "#") { key = String(key[..<hash]) }
        if key.hasSuffix("/") { key.removeLast() }
        return key
    }

    /// The request's effective policy: its own, or the client's default.
    func policy(for request: Request) -> CachePolicy {
        request.options.cachePolicy.resolved(default: configuration.defaultPolicy)
    }

    func rules(for request: Request) -> CacheFreshness.Rules {
        CacheFreshness.Rules(respectsCacheControl: configuration.respectsCacheControlHeaders,
                             secondsToCache: request.options.secondsToCache)
    }

    /// Looks the request's entry up and decides what to do with it; `nil` when the cache takes no part (no store,
    /// not a `GET`).
    func decide(_ request: Request) async throws -> CacheDecision? {
        guard let store, request.method == .get else { return nil }
        let policy = policy(for: request)
        if policy.contains(.doNotReadFromCache) { return .network(revalidating: nil, fallback: nil) }
        let found = try await staged(.cache) { try await store.entry(forKey: Self.key(for: request.url)) }
        return CacheDecision.decide(found, for: request, policy: policy, now: configuration.now(),
                                    respectsCacheControl: configuration.respectsCacheControlHeaders)
    }

    /// Adds `If-None-Match` (the entry's `ETag`) and `If-Modified-Since` (its `Last-Modified`) unless set.
    static func addConditionalFields(from cached: CachedResponseHead, to request: inout Request) {
        if request.headerFields[.ifNoneMatch] == nil, let etag = cached.headerFields[.eTag] {
            request.headerFields[.ifNoneMatch] = etag
        }
        if request.headerFields[.ifModifiedSince] == nil, let modified = cached.headerFields[.lastModified] {
            request.headerFields[.ifModifiedSince] = modified
        }
    }

    /// Updates the entry's head with the fields and freshness a 304 announced (never its body, nor its
    /// `Content-Length` or `Content-Encoding`: the stored body keeps its own), stores it unless the policy forbids
    /// writing, and returns it.
    func revalidated(
        _ cached: CachedResponseHead, by response: Response, for request: Request, timing: CacheFreshness.Timing
    ) async throws -> CachedResponseHead {
        var merged = cached.headerFields
        merged[.age] = nil
        var announced = CacheFreshness.storedFields(response.headerFields)
        announced[.contentEncoding] = nil
        for field in announced {
            merged[field.name] = nil
        }
        for field in announced {
            merged.append(field)
        }
        let head = CacheFreshness.head(
            status: cached.status, fields: merged, ageFields: response.headerFields, timing: timing,
            rules: rules(for: request), storagePolicy: cached.storagePolicy,
            varyingRequestFields: cached.varyingRequestFields)
        if let store, !policy(for: request).contains(.doNotWriteToCache) {
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

    /// The response an entry answers with: its head, `Age` set to the entry's current age and `Content-Length` to
    /// the stored body's length.
    func response(from head: CachedResponseHead, body: ResponseBody) -> Response {
        var fields = head.headerFields
        fields[.age] = String(Int(CacheDecision.currentAge(of: head, at: configuration.now())))
        if let length = body.expectedLength { fields[.contentLength] = String(length) }
        return Response(status: head.status, headerFields: fields, body: body)
    }

    /// The 504 a `dontLoad` request gets when nothing is stored (RFC 9111's answer to `only-if-cached`).
    static func notCachedResponse() -> Response {
        var fields = HTTPFields()
        fields[.contentLength] = "0"
        return Response(status: .gatewayTimeout, headerFields: fields, body: .empty)
    }

    /// The response body, wrapped so that a storable response streams into a cache writer as it is read and is
    /// committed at its end. `hop` is the request as sent, whose fields the response's `Vary` may name.
    ///
    /// A body in content codings the client's codecs undo is decoded for the store as it streams (the caller still
    /// reads it as sent) and stored under a head without `Content-Encoding`; one that does not decode is not
    /// stored. Other codings are stored as sent, with their `Content-Encoding`.
    func body(of response: Response, for hop: Request, timing: CacheFreshness.Timing) async throws -> ResponseBody {
        guard let store, hop.method == .get, !policy(for: hop).contains(.doNotWriteToCache),
            allowsStoring(response, for: hop)
        else { return response.body }
        var fields = response.headerFields
        var decoder: (any ContentDecoder)?
        if decodesForStore(response) {
            do {
                decoder = try codecStaged { try ContentCoding.makeDecoder(for: fields, codecs: codecs) }
            } catch {
                return response.body  // no decoder: not stored, the reader meets the error if it decodes
            }
            fields[.contentEncoding] = nil
        }
        let head = CacheFreshness.head(
            status: response.status, fields: fields, ageFields: response.headerFields, timing: timing,
            rules: rules(for: hop),
            storagePolicy: hop.options.cacheStoragePolicy,
            varyingRequestFields: Self.varyingRequestFields(of: hop, named: response.headerFields))
        let key = Self.key(for: hop.url)
        let expectedLength = response.body.expectedLength
        // The decoded length is not known before the end; the store checks its cap as the bytes come.
        let storedLength = decoder == nil ? expectedLength : nil
        let writer: (any CacheEntryWriter)?
        do {
            writer = try await staged(.cache) {
                try await store.makeWriter(forKey: key, head: head, expectedLength: storedLength)
            }
        } catch {
            await response.body.discard()
            throw error
        }
        guard let writer else { return response.body }
        return ResponseBody(expectedLength: expectedLength,
                            source: CachingBodySource(base: response.body.source, writer: writer, decoder: decoder))
    }

    /// Whether the store gets the body decoded: it has content codings and the client has a codec for each.
    func decodesForStore(_ response: Response) -> Bool {
        let codings = ContentCoding.codings(in: response.headerFields)
        return !codings.isEmpty && codings.allSatisfy { ContentCoding.codec(for: $0, in: codecs) != nil }
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

    /// Whether a response may be stored (RFC 9111 §3): a final status other than 206 and 304; not `no-store` (in
    /// the response or the request) unless `must-understand` covers a status this cache understands; an
    /// unknown status with `must-understand` never; explicit freshness, `public`, `private`,
    /// ``RequestOptions/secondsToCache`` or a heuristically cacheable status; and not varying on `*` or on
    /// credentials (`Authorization`, `Proxy-Authorization`, `Cookie`): the entry would have to keep their values to
    /// tell requests apart, and a cache never keeps a secret. Without
    /// ``Client/CacheConfiguration/respectsCacheControlHeaders`` only `Vary` counts, and the status must be one
    /// ASIHTTPRequest stored (200, 301, 302, 303, 307) or 308.
    func allowsStoring(_ response: Response, for request: Request) -> Bool {
        let status = response.status.code
        let fields = response.headerFields
        guard status >= 200, status != 206, status != 304 else { return false }
        let varying = CacheDirectives(fields, .vary).values.keys
        guard !varying.contains(where: { $0 == "*" || Self.secretFields.contains($0) }) else { return false }
        // Ignoring the server's fields keeps an entry fresh for ever: only statuses ASIHTTPRequest stored qualify.
        guard configuration.respectsCacheControlHeaders else { return Self.storedWithoutCacheControl.contains(status) }
        let cacheControl = CacheDirectives(fields, .cacheControl)
        if cacheControl.contains("must-understand") {
            guard CacheFreshness.understood.contains(status) else { return false }
        } else if cacheControl.contains("no-store") {
            return false
        }
        if CacheDirectives(request.headerFields, .cacheControl).contains("no-store") { return false }
        return cacheControl.contains("max-age") || !fields[values: .expires].isEmpty || cacheControl.contains("public")
            || cacheControl.contains("private") || request.options.secondsToCache != nil
            || CacheFreshness.heuristicallyCacheable.contains(status)
    }

    /// After an unsafe method (anything but `GET`, `HEAD`, `OPTIONS`, `TRACE`) succeeded (2xx or 3xx), removes the
    /// entries of its URL and of the same-origin `Location` and `Content-Location` (RFC 9111 §4.4).
    func invalidate(after response: Response, for hop: Request) async throws {
        guard let store, !Self.safeMethods.contains(hop.method), (200..<400).contains(response.status.code) else {
            return
        }
        var urls = [hop.url]
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let value = response.headerFields[name], let target = URL(string: value, relativeTo: hop.url),
                Origin(target) == Origin(hop.url)
            else { continue }
            urls.append(target.absoluteURL)
        }
        for url in urls {
            try await staged(.cache) { try await store.removeEntry(forKey: Self.key(for: url)) }
        }
    }

    /// What is stored when `Cache-Control` is not obeyed: ASIHTTPRequest's 200, 301, 302, 303 and 307, and 308.
    static let storedWithoutCacheControl: Set<Int> = [200, 301, 302, 303, 307, 308]

    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]

    /// Request fields whose values a cache entry must never keep.
    static let secretFields: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    static let pragma = HTTPField.Name("Pragma")!
}
