/// The result of signing: every intermediate form (for debugging a mismatch with a server) and what to send.
public struct SigV4Signature: Sendable, CustomStringConvertible {
    /// The canonical request.
    public var canonicalRequest: String
    /// The string to sign.
    public var stringToSign: String
    /// The signature, lowercase hex.
    public var signature: String
    /// The signed header names, `;`-separated.
    public var signedHeaders: String
    /// `AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…` (header form; empty for a presigned URL).
    public var authorization: String
    /// The header fields to add to the request, `Authorization` last (header form; empty for a presigned URL).
    public var headerFields: [(name: String, value: String)]
    /// The query to send, the request's own parameters then the `X-Amz-*` ones, `X-Amz-Signature` last (presigned
    /// form; the request's query for the header form).
    public var query: String

    /// The signed header names and the signature; no secret is ever part of a signature.
    public var description: String { "SigV4Signature(signedHeaders: \(signedHeaders), signature: \(signature))" }
}
