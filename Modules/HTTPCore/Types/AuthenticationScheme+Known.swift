extension AuthenticationScheme {
    /// HTTP Digest (RFC 7616), answered by the `HTTPAuthentication` plug-in.
    public static let digest = AuthenticationScheme("Digest")
    /// NTLM (MS-NLMP: NTLMv2, NTLMv1 only as an opt-in), answered by the `HTTPAuthentication` plug-in.
    public static let ntlm = AuthenticationScheme("NTLM")
    /// OAuth 2.0 Bearer tokens (RFC 6750), answered by the pipeline for ``Credential/Kind/bearerToken``
    /// credentials.
    public static let bearer = AuthenticationScheme("Bearer")
}
