public import FoundationEssentials

/// Temporary URLs: a signed `GET`, `PUT`, `HEAD`, … of one object (or of every object under a prefix) that anyone
/// may use until it expires, without a token (Swift's `tempurl` middleware). The key is the account's or the
/// container's `Temp-URL-Key` metadata (or `Temp-URL-Key-2`).
///
/// The signature is the HMAC of `METHOD\nEXPIRES\nPATH` (with `prefix:` before a prefix path, and an `ip=` line
/// first when limited to addresses), in hexadecimal: what `swift tempurl` prints.
///
/// ```swift
/// let path = "/v1/AUTH_test/photos/cat.jpg"
/// let query = CloudFilesTempURL.query(method: "GET", path: path, expires: 1_900_000_000, key: "secret")
/// // path + "?" + query == swift tempurl --absolute GET 1900000000 /v1/AUTH_test/photos/cat.jpg secret
/// ```
public enum CloudFilesTempURL {
    /// The HMAC's hash. SHA-256 by default; SHA-1 for old clusters, SHA-512 when the cluster allows it.
    public struct Digest: Sendable, Hashable, CustomStringConvertible {
        let name: String

        /// HMAC-SHA1 (`tempurl.allowed_digests` must list `sha1`; newer clusters drop it).
        public static let sha1 = Digest(name: "sha1")
        /// HMAC-SHA256, the default.
        public static let sha256 = Digest(name: "sha256")
        /// HMAC-SHA512.
        public static let sha512 = Digest(name: "sha512")

        /// `sha1`, `sha256` or `sha512`, as `/info` names it.
        public var description: String { name }
    }

    /// The signature: hexadecimal HMAC of the method, expiry and path.
    /// - Parameters:
    ///   - method: `GET`, `PUT`, `HEAD`, `POST` or `DELETE`.
    ///   - path: The object's path, not percent-encoded: `/v1/AUTH_account/container/object` (or, with `prefix`, the
    ///     path of the prefix: `/v1/AUTH_account/container/pre`).
    ///   - expires: Seconds since 1970 when the URL stops working.
    ///   - key: The `Temp-URL-Key`.
    ///   - digest: The hash; SHA-256 by default.
    ///   - prefix: Whether the URL allows every object whose name starts with the path's object part.
    ///   - ipRange: Limits the URL to an address or CIDR range (`temp_url_ip_range`).
    /// - Returns: The signature.
    public static func signature(
        method: String, path: String, expires: Int64, key: String, digest: Digest = .sha256, prefix: Bool = false,
        ipRange: String? = nil
    ) -> String {
        var text = "\(method)\n\(expires)\n" + (prefix ? "prefix:" : "") + path
        if let ipRange { text = "ip=\(ipRange)\n" + text }
        return Digests.hex(Digests.hmac(digest, key: Array(key.utf8), Array(text.utf8)))
    }

    /// The query that makes a temp URL of the path: `temp_url_sig=…&temp_url_expires=…` (and
    /// `temp_url_prefix`, `temp_url_ip_range`, `filename`, `inline` when asked).
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The path, not percent-encoded.
    ///   - expires: Seconds since 1970.
    ///   - key: The key.
    ///   - digest: The hash.
    ///   - prefix: Whether it is a prefix URL (the path then ends at the prefix).
    ///   - ipRange: The allowed addresses.
    ///   - filename: Overrides the download's file name (`Content-Disposition`).
    ///   - inline: Asks for `Content-Disposition: inline`.
    /// - Returns: The query, without `?`.
    public static func query(
        method: String, path: String, expires: Int64, key: String, digest: Digest = .sha256, prefix: Bool = false,
        ipRange: String? = nil, filename: String? = nil, inline: Bool = false
    ) -> String {
        let sig = signature(
            method: method, path: path, expires: expires, key: key, digest: digest, prefix: prefix, ipRange: ipRange)
        var items = ["temp_url_sig=\(sig)", "temp_url_expires=\(expires)"]
        if prefix, let objectStart = objectPrefix(of: path) {
            items.append("temp_url_prefix=" + PathEncoding.query(objectStart))
        }
        if let ipRange { items.append("temp_url_ip_range=" + PathEncoding.query(ipRange)) }
        if let filename { items.append("filename=" + PathEncoding.query(filename)) }
        if inline { items.append("inline") }
        return items.joined(separator: "&")
    }

    /// A full temp URL: the origin of `storageURL`, the percent-encoded path, and the signed query.
    /// - Parameters:
    ///   - storageURL: Any URL on the cluster (its scheme, host and port are used), usually the storage URL.
    ///   - method: The method.
    ///   - path: The path, not percent-encoded.
    ///   - expires: Seconds since 1970.
    ///   - key: The key.
    ///   - digest: The hash.
    ///   - prefix: Whether it is a prefix URL.
    ///   - filename: The download's file name.
    ///   - inline: `Content-Disposition: inline`.
    /// - Returns: The URL, or `nil` when no URL can be made of the parts.
    public static func url(
        storageURL: URL, method: String, path: String, expires: Int64, key: String, digest: Digest = .sha256,
        prefix: Bool = false, filename: String? = nil, inline: Bool = false
    ) -> URL? {
        guard let scheme = storageURL.scheme, let host = storageURL.host else { return nil }
        let port = storageURL.port.map { ":\($0)" } ?? ""
        let query = query(
            method: method, path: path, expires: expires, key: key, digest: digest, prefix: prefix, filename: filename,
            inline: inline)
        return URL(string: "\(scheme)://\(host)\(port)\(PathEncoding.path(path))?\(query)")
    }

    /// The object part of `/v1/account/container/object-prefix`.
    private static func objectPrefix(of path: String) -> String? {
        let parts = path.split(separator: "/", maxSplits: 4, omittingEmptySubsequences: false)
        return parts.count == 5 ? String(parts[4]) : parts.count == 4 ? "" : nil
    }
}
