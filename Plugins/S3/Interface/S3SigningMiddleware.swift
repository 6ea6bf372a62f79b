public import FoundationEssentials
public import HTTPCore

/// Signs every attempt a `Client` sends with AWS Signature Version 4, so retries, redirects and the pipeline's
/// own changes are signed as they go out (ASIS3Request signed once, when built).
///
/// It signs `Host`, `Content-Type`, `Content-MD5`, `Range` and every `x-amz-*` field, and adds `X-Amz-Date`,
/// `X-Amz-Security-Token` for temporary credentials, `Authorization` (replacing any other), and, for S3,
/// `x-amz-content-sha256`: the body's SHA-256 when it is in memory, `UNSIGNED-PAYLOAD` for a file or stream
/// (which S3 accepts), or the value the request already carries. For other services a replayable file or stream
/// body is read once to hash it.
///
/// ```swift
/// let signer = S3SigningMiddleware(credentials: credentials, region: "us-east-1")
/// let client = Client(transport: .posix(), middleware: [signer])
/// ```
public struct S3SigningMiddleware: Middleware {
    /// Which requests are signed.
    public enum Scope: Sendable, Hashable {
        /// Every request the client sends.
        case all
        /// Requests to these hosts and their subdomains (a virtual-host-style bucket is a subdomain).
        case hosts([String])
    }

    /// The signer.
    public var signer: SigV4Signer
    /// Which requests are signed.
    public var scope: Scope
    private let now: @Sendable () -> Date

    /// Creates the middleware with a signer.
    /// - Parameters:
    ///   - signer: The signer (credentials, region, service).
    ///   - scope: Which requests to sign; all by default. A client that also talks to other hosts should name
    ///     the S3 endpoint's host, so no other host sees a signature.
    ///   - now: The clock of the signing time; the system's by default.
    public init(signer: SigV4Signer, scope: Scope = .all, now: @escaping @Sendable () -> Date = { Date() }) {
        self.signer = signer
        self.scope = scope
        self.now = now
    }

    /// Creates the middleware for a service.
    /// - Parameters:
    ///   - credentials: The key that signs.
    ///   - region: The region.
    ///   - service: The service; `s3` by default.
    ///   - scope: Which requests to sign; all by default.
    public init(credentials: AWSCredentials, region: String, service: String = "s3", scope: Scope = .all) {
        self.init(signer: SigV4Signer(credentials: credentials, region: region, service: service), scope: scope)
    }

    /// Signs the request when it is in scope, then sends it.
    /// - Parameters:
    ///   - request: The attempt.
    ///   - context: The attempt's context.
    ///   - next: Sends onward.
    /// - Returns: The response.
    /// - Throws: Whatever `next` throws; a `ClientError` when a body to hash cannot be read.
    public func intercept(
        _ request: Request, context: RequestContext, next: @Sendable (Request, RequestContext) async throws -> Response
    ) async throws -> Response {
        guard matches(request.url) else { return try await next(request, context) }
        var request = request
        request.headerFields[.authorization] = nil
        let payloadHash = try await hash(of: request)
        let host = request.headerFields[HTTPField.Name("Host")!] ?? Self.host(of: request.url)
        var fields: [(name: String, value: String)] = [("Host", host)]
        for field in request.headerFields {
            let name = field.name.canonicalName
            if name == "content-type" || name == "content-md5" || name == "range" || name.hasPrefix("x-amz-") {
                fields.append((name, field.value))
            }
        }
        let input = SigV4Input(
            method: request.method.rawValue, path: request.url.path(percentEncoded: true),
            query: request.url.query(percentEncoded: true), headerFields: fields, payloadHash: payloadHash)
        let signature = signer.sign(input, at: now(), addsContentSHA256: signer.service == "s3")
        for field in signature.headerFields {
            if let name = HTTPField.Name(field.name) { request.headerFields[name] = field.value }
        }
        return try await next(request, context)
    }

    private func matches(_ url: URL) -> Bool {
        guard case .hosts(let hosts) = scope else { return true }
        let host = (url.host ?? "").lowercased()
        return hosts.contains { host == $0.lowercased() || host.hasSuffix("." + $0.lowercased()) }
    }

    private func hash(of request: Request) async throws -> String {
        if let given = request.headerFields[HTTPField.Name("x-amz-content-sha256")!] { return given }
        guard let body = request.body else { return SigV4Input.emptyPayloadHash }
        if case .bytes(let bytes) = body.content { return SigV4Input.payloadHash(of: bytes) }
        guard signer.service != "s3", body.isReplayable else { return SigV4Input.unsignedPayload }
        let digest = StreamingSHA256()
        for try await chunk in body.makeChunks() { digest.update(chunk) }
        return digest.finish()
    }

    /// The `Host` value the transport sends: the host (IPv6 in brackets), then `:port` unless default.
    static func host(of url: URL) -> String {
        var host = url.host(percentEncoded: true) ?? ""
        if host.contains(":") && !host.hasPrefix("[") { host = "[" + host + "]" }
        let defaultPort = URL.defaultPort(forScheme: url.scheme)
        guard let port = url.port, port != defaultPort else { return host }
        return host + ":" + String(port)
    }
}
