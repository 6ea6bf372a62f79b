public import FoundationEssentials

extension CloudFilesClient {
    /// A temp URL for an object of this account, expiring `seconds` from now.
    /// - Parameters:
    ///   - method: `GET` by default.
    ///   - container: The container.
    ///   - name: The object (or, with `prefix`, the name prefix; empty for the whole container).
    ///   - seconds: Seconds until it expires.
    ///   - key: The account's or the container's `Temp-URL-Key`.
    ///   - digest: The hash; SHA-256 by default.
    ///   - prefix: Whether the URL allows every object under the name prefix.
    ///   - filename: The download's file name.
    ///   - inline: `Content-Disposition: inline`.
    /// - Returns: The URL.
    /// - Throws: ``CloudFilesError`` when authentication fails or no URL can be made.
    public func tempURL(
        method: String = "GET", container: String, name: String, expiresIn seconds: Int, key: String,
        digest: CloudFilesTempURL.Digest = .sha256, prefix: Bool = false, filename: String? = nil,
        inline: Bool = false
    ) async throws -> URL {
        let storage = try await session().storageURL
        let expires = Int64(Date().timeIntervalSince1970) + Int64(seconds)
        let base = storage.path(percentEncoded: false)
        let path = (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + container + "/" + name
        guard
            let url = CloudFilesTempURL.url(
                storageURL: storage, method: method, path: path, expires: expires, key: key, digest: digest,
                prefix: prefix, filename: filename, inline: inline)
        else { throw CloudFilesError(code: .invalidInput, message: "cannot make a temp URL of \(container)/\(name)") }
        return url
    }
}
