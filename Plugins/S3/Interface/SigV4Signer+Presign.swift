public import FoundationEssentials
public import HTTPCore

extension SigV4Signer {
    /// A presigned URL for a request: anyone holding it may send that request until it expires, with no key
    /// (S3's presigned `GET` or `PUT`). The payload is ``SigV4Input/unsignedPayload``; only `Host` is signed.
    ///
    /// ```swift
    /// let url = signer.presignedURL(for: requests.getObject(bucket: "b", key: "k"), expires: 3600)
    /// ```
    /// - Parameters:
    ///   - request: The request to allow; its method and URL are signed.
    ///   - expires: Seconds the URL stays valid (at most 604,800).
    ///   - date: The signing time; now by default.
    /// - Returns: The request's URL with the `X-Amz-*` parameters.
    public func presignedURL(for request: Request, expires: Int, at date: Date = Date()) -> URL {
        let input = SigV4Input(
            method: request.method.rawValue, path: request.url.path(percentEncoded: true),
            query: request.url.query(percentEncoded: true),
            headerFields: [("Host", S3SigningMiddleware.host(of: request.url))], payloadHash: SigV4Input.unsignedPayload
        )
        let signature = presign(input, at: date, expires: expires)
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = signature.query
        return components.url!
    }
}
