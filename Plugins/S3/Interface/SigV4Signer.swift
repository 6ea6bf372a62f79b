public import FoundationEssentials

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`) for request headers and for presigned URLs.
///
/// For S3 (``service`` `s3`) paths are not normalized (S3 keys may hold `//`, `.` and `..`), which the
/// `*-unnormalized` cases of the AWS test suite check; other services normalize. The signer is a value: it holds
/// the credentials and computes; ``S3SigningMiddleware`` signs every attempt a `Client` sends with it.
///
/// ```swift
/// let signer = SigV4Signer(credentials: credentials, region: "us-east-1")
/// let signature = signer.sign(input, at: Date())
/// ```
public struct SigV4Signer: Sendable {
    /// The key that signs.
    public var credentials: AWSCredentials
    /// The region of the credential scope, for example `us-east-1`.
    public var region: String
    /// The service of the credential scope, for example `s3`.
    public var service: String
    /// Whether the canonical URI is normalized (dot segments, empty segments); `false` for S3.
    public var normalizesPath: Bool

    /// The signing algorithm's name.
    public static let algorithm = "AWS4-HMAC-SHA256"

    /// Creates a signer.
    /// - Parameters:
    ///   - credentials: The key that signs.
    ///   - region: The region.
    ///   - service: The service; `s3` by default.
    ///   - normalizesPath: Whether to normalize paths; by default every service but `s3` does.
    public init(credentials: AWSCredentials, region: String, service: String = "s3", normalizesPath: Bool? = nil) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.normalizesPath = normalizesPath ?? (service != "s3")
    }

    /// Signs a request for its headers: adds `X-Amz-Date` (unless the input has it) and `X-Amz-Security-Token`
    /// (for temporary credentials, unless the input has it) to the signed fields.
    /// - Parameters:
    ///   - input: What to sign.
    ///   - date: The signing time.
    ///   - addsContentSHA256: Whether to sign and send `x-amz-content-sha256` with the payload hash (S3 needs it).
    /// - Returns: The signature, with the fields to add to the request.
    public func sign(_ input: SigV4Input, at date: Date, addsContentSHA256: Bool = false) -> SigV4Signature {
        let amzDate = AMZDate(date)
        var fields = input.headerFields
        var added = [(name: String, value: String)]()
        func has(_ name: String) -> Bool { fields.contains { $0.name.lowercased() == name } }
        if addsContentSHA256 && !has("x-amz-content-sha256") {
            added.append(("X-Amz-Content-Sha256", input.payloadHash))
        }
        if !has("x-amz-date") { added.append(("X-Amz-Date", amzDate.timestamp)) }
        if let token = credentials.sessionToken, !has("x-amz-security-token") {
            added.append(("X-Amz-Security-Token", token))
        }
        fields += added
        let (canonicalHeaders, signedHeaders) = SigV4Canonical.headers(fields)
        let parameters = SigV4Canonical.parameters(input.query)
        let canonical = canonicalRequest(input, parameters, canonicalHeaders, signedHeaders)
        let (stringToSign, signature) = stringAndSignature(canonical, amzDate)
        let authorization =
            "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope(amzDate)), "
            + "SignedHeaders=\(signedHeaders), Signature=\(signature)"
        added.append(("Authorization", authorization))
        return SigV4Signature(
            canonicalRequest: canonical, stringToSign: stringToSign, signature: signature,
            signedHeaders: signedHeaders, authorization: authorization, headerFields: added, query: input.query ?? "")
    }

    /// Signs a request as a presigned URL: the `X-Amz-*` parameters go in the query, every field of the input is
    /// signed, and the signature is the last parameter.
    /// - Parameters:
    ///   - input: What to sign; S3 presigned URLs use ``SigV4Input/unsignedPayload``.
    ///   - date: The signing time.
    ///   - expires: How long the URL is valid, in seconds (at most 604,800, seven days).
    /// - Returns: The signature, with the query to send.
    public func presign(_ input: SigV4Input, at date: Date, expires: Int) -> SigV4Signature {
        let amzDate = AMZDate(date)
        let (canonicalHeaders, signedHeaders) = SigV4Canonical.headers(input.headerFields)
        var added: [(name: String, value: String)] = [
            ("X-Amz-Algorithm", Self.algorithm),
            ("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope(amzDate))"),
            ("X-Amz-Date", amzDate.timestamp),
            ("X-Amz-SignedHeaders", signedHeaders),
            ("X-Amz-Expires", String(expires)),
        ]
        if let token = credentials.sessionToken { added.append(("X-Amz-Security-Token", token)) }
        let parameters =
            SigV4Canonical.parameters(input.query) + added.map { (Array($0.name.utf8), Array($0.value.utf8)) }
        let canonical = canonicalRequest(input, parameters, canonicalHeaders, signedHeaders)
        let (stringToSign, signature) = stringAndSignature(canonical, amzDate)
        added.append(("X-Amz-Signature", signature))
        let own = input.query.flatMap { $0.isEmpty ? nil : $0 }
        let extra = added.map {
            SigV4Canonical.encode($0.name.utf8, keepsSlash: false) + "="
                + SigV4Canonical.encode($0.value.utf8, keepsSlash: false)
        }
        let query = ((own.map { [$0] } ?? []) + extra).joined(separator: "&")
        return SigV4Signature(
            canonicalRequest: canonical, stringToSign: stringToSign, signature: signature,
            signedHeaders: signedHeaders, authorization: "", headerFields: [], query: query)
    }

    private func scope(_ date: AMZDate) -> String { "\(date.day)/\(region)/\(service)/aws4_request" }

    private func canonicalRequest(
        _ input: SigV4Input, _ parameters: [(name: [UInt8], value: [UInt8])], _ headers: String, _ signed: String
    ) -> String {
        [
            input.method, SigV4Canonical.uri(path: input.path, normalizes: normalizesPath),
            SigV4Canonical.query(parameters), headers, signed, input.payloadHash,
        ].joined(separator: "\n")
    }

    private func stringAndSignature(_ canonical: String, _ date: AMZDate) -> (String, String) {
        let stringToSign = [Self.algorithm, date.timestamp, scope(date), Crypto.sha256Hex(canonical)]
            .joined(separator: "\n")
        var key = Crypto.hmacSHA256(key: Array(("AWS4" + credentials.secretAccessKey).utf8), Array(date.day.utf8))
        for part in [region, service, "aws4_request"] { key = Crypto.hmacSHA256(key: key, Array(part.utf8)) }
        return (stringToSign, Crypto.hex(Crypto.hmacSHA256(key: key, Array(stringToSign.utf8))))
    }
}
