import FoundationEssentials
public import HTTPCore
import HTTPPipeline

/// Sends `X-Auth-Token` with every request to the session's storage (or CDN management) URL, and on a `401`
/// authenticates again once and sends the request again with the new token (when its body can be sent twice).
///
/// ``CloudFilesClient`` installs it outermost in its client, so requests it sends itself and those a
/// `RequestQueue` sends for it (large-object segments) carry the token. Requests to other URLs pass untouched.
/// The token is never logged: it appears in no description, and this middleware writes no log lines.
public final class CloudFilesTokenMiddleware: Middleware, Sendable {
    let cache: TokenCache
    private let sender: TokenCache.Sender

    /// Creates the middleware.
    /// - Parameters:
    ///   - authentication: How to get a token.
    ///   - credentialStore: Where to keep the session between runs (the token as a credential's secret, scoped to
    ///     the identity URL with the user as the realm); `nil` keeps it in memory only.
    ///   - identityTransport: The transport identity requests go through, in a client of their own (so not through
    ///     the storage client's middleware).
    ///   - options: The identity requests' options (timeouts).
    public init(
        authentication: CloudFilesAuthentication, credentialStore: (any CredentialStore)? = nil,
        identityTransport: any Transport, options: RequestOptions = RequestOptions()
    ) {
        self.cache = TokenCache(
            authentication: authentication, store: credentialStore, options: CloudFilesClient.storageOptions(options))
        let identity = Client(transport: identityTransport)
        self.sender = { request in
            let response = try await identity.send(request)
            return IdentityRequests.Answer(
                status: response.status.code, fields: response.headerFields, body: response.body)
        }
    }

    /// The session, authenticating first when there is none.
    /// - Returns: The session.
    /// - Throws: ``CloudFilesError`` when authentication fails, or `ClientError` from the transport.
    public func session() async throws -> CloudFilesSession { try await cache.session(send: sender) }

    /// Forgets the session (also the stored one), so the next request authenticates.
    public func signOut() async { await cache.clear() }

    /// How many times it has authenticated (the first time and every renewal).
    public var authenticationCount: Int { get async { await cache.authenticationCount } }

    /// Adds the token to storage requests and renews it once on a `401`.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The attempt's context.
    ///   - next: The rest of the chain.
    /// - Returns: The response (the second one after a renewal; the first `401` when the identity service refuses
    ///   to renew).
    /// - Throws: What `next` throws, or the transport's error when the identity service cannot be reached.
    public func intercept(
        _ request: Request, context: RequestContext,
        next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response {
        guard let session = await cache.current, Self.isStorage(request.url, session) else {
            return try await next(request, context)
        }
        var signed = request
        signed.headerFields[Self.tokenField] = session.token
        let response = try await next(signed, context)
        guard response.status.code == 401, request.body?.isReplayable ?? true else { return response }
        let renewed: CloudFilesSession
        do {
            renewed = try await cache.renew(rejected: session.token, send: sender)
        } catch is CloudFilesError {
            // The identity service refused too (a key revoked meanwhile): the storage's 401 is the answer, so the
            // caller gets `.unauthorized` with Swift's message rather than a wrapped middleware error.
            return response
        } catch {
            await response.body.discard()
            throw error
        }
        await response.body.discard()
        signed.headerFields[Self.tokenField] = renewed.token
        return try await next(signed, context)
    }

    static let tokenField = HTTPField.Name("X-Auth-Token")!

    /// Whether `url` is under the storage URL or the CDN management URL (same scheme, host, port, path prefix).
    static func isStorage(_ url: URL, _ session: CloudFilesSession) -> Bool {
        [session.storageURL, session.cdnManagementURL].contains { base in
            guard let base, base.scheme == url.scheme, base.host == url.host, base.port == url.port else {
                return false
            }
            let prefix = base.path(percentEncoded: true)
            let path = url.path(percentEncoded: true)
            return path == prefix || path.hasPrefix(prefix.hasSuffix("/") ? prefix : prefix + "/")
        }
    }
}
