import HTTPCore

/// The automatic header fields of each hop, added without a suspension when nothing asks for one.
extension RequestPipeline {
    /// Whether adding a hop's header fields needs an async step: the cookie store has cookies to ask for, a
    /// credential may go up front, or the body is to be compressed. Without them ``prepareWithoutWaiting(_:)``
    /// does the same work with no suspension. Never inlined: the credential checks' temporaries would otherwise take
    /// slots in the async frame of ``RequestPipeline/run(_:id:originalURL:events:consume:)`` (decision 0034).
    @inline(never)
    func needsWaitingToPrepare(
        _ hop: Request, authentication: AuthenticationStage, state: HopState
    ) -> Bool {
        hop.options.usesCookieStore && !client.cookies.isKnownEmpty || hop.options.compressesRequestBody
            || hop.headerFields[.authorization] == nil
            && authentication.mayAuthorizePreemptively(hop, state: state.authentication)
    }

    /// Adds the automatic header fields for one hop: `User-Agent`, `Cookie`, `Authorization`, the
    /// `Accept-Encoding` and a resumed download's `Range`, and compresses
    /// the body when asked. Fields the caller set are kept.
    @inline(never)
    func prepare(
        _ hop: inout Request,
        authentication: AuthenticationStage,
        authState: inout AuthenticationStage.State
    ) async throws {
        addUserAgent(to: &hop)
        var cookies = hop.options.requestCookies
        if hop.options.usesCookieStore, !client.cookies.isKnownEmpty {
            do {
                cookies += try await client.cookies.cookies(for: hop.cookieURL)
            } catch {
                throw labelled(error, .cookies)
            }
        }
        Self.addCookieField(cookies, to: &hop)
        if hop.headerFields[.authorization] == nil, authentication.mayAuthorizePreemptively(hop, state: authState) {
            let value: String?
            do {
                value = try await authentication.preemptiveAuthorization(for: hop, state: &authState)
            } catch {
                throw labelled(error, .credentials)
            }
            if let value { hop.headerFields[.authorization] = value }
        }
        ContentCoding.addAcceptEncoding(to: &hop, accepted: client.acceptEncoding)
        if hop.options.compressesRequestBody { try await RequestBodyCompression.apply(to: &hop, codecs: client.codecs) }
        ResumeRange.apply(to: &hop)
    }

    /// ``prepare(_:authentication:authState:)`` for a hop that needs no async step. Never inlined, so the header
    /// fields it builds stay out of the loop's async frame.
    @inline(never)
    func prepareWithoutWaiting(_ hop: inout Request) {
        addUserAgent(to: &hop)
        Self.addCookieField(hop.options.requestCookies, to: &hop)
        ContentCoding.addAcceptEncoding(to: &hop, accepted: client.acceptEncoding)
        ResumeRange.apply(to: &hop)
    }

    /// Sets the request's own agent or the client's, unless the caller set a `User-Agent` field. The client's is a
    /// field built once: making it from the string checked every character of the value again on every hop.
    func addUserAgent(to hop: inout Request) {
        guard hop.headerFields[.userAgent] == nil else { return }
        if let own = hop.options.userAgent {
            hop.headerFields[.userAgent] = own
        } else {
            hop.headerFields.append(client.userAgentField)
        }
    }

    /// Adds `cookies` to the hop's `Cookie` field, after any the caller set.
    static func addCookieField(_ cookies: [Cookie], to hop: inout Request) {
        guard !cookies.isEmpty else { return }
        let header = cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
        hop.headerFields[.cookie] = hop.headerFields[.cookie].map { "\($0); \(header)" } ?? header
    }
}
