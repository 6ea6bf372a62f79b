import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns header field name bytes into an `HTTPField.Name`, reusing the predefined names for common fields sent
/// in their usual spelling (no string building or lowercasing on the hot path).
enum HTTP1KnownFieldNames {
    private static let known: [HTTPField.Name] = standard + common
    private static let standard: [HTTPField.Name] = [
        .contentType, .contentLength, .date, .server, .connection, .cacheControl, .eTag, .lastModified,
        .transferEncoding, .contentEncoding, .location, .setCookie, .vary, .acceptRanges, .expires, .age,
        .contentRange, .accessControlAllowOrigin, .strictTransportSecurity, .xContentTypeOptions,
        .contentSecurityPolicy, .wwwAuthenticate, .retryAfter, .contentDisposition, .contentLanguage, .via,
        .accessControlAllowCredentials, .accessControlAllowHeaders, .accessControlAllowMethods,
        .accessControlExposeHeaders, .accessControlMaxAge, .allow, .authenticationInfo, .contentLocation,
        .contentSecurityPolicyReportOnly, .crossOriginResourcePolicy, .proxyAuthenticate, .proxyAuthenticationInfo,
        .trailer, .upgrade,
    ]
    private static let common: [HTTPField.Name] = [
        // Common response fields HTTPTypes has no name for, in their usual spelling: a name longer than 15 bytes
        // costs two string allocations (the name as sent and lower-cased) when it is built.
        "Keep-Alive", "X-Frame-Options", "X-XSS-Protection", "Referrer-Policy", "Permissions-Policy",
        "X-Powered-By", "Alt-Svc", "Link", "Pragma", "X-Cache", "X-Request-Id", "Cross-Origin-Opener-Policy",
        "Cross-Origin-Embedder-Policy", "Server-Timing", "Timing-Allow-Origin", "Report-To", "NEL",
        "X-Amz-Request-Id", "X-Amz-Id-2",
    ].map { HTTPField.Name($0)! }
    /// For each name length, the known names of that length (as raw bytes) and their `HTTPField.Name`.
    private static let byLength: [[(bytes: [UInt8], name: HTTPField.Name)]] = {
        var table = Array(repeating: [(bytes: [UInt8], name: HTTPField.Name)](), count: 64)
        for name in known {
            for spelling in Set([name.rawName, name.canonicalName]) {
                let bytes = Array(spelling.utf8)
                let entry = (bytes: bytes, name: spelling == name.rawName ? name : HTTPField.Name(spelling)!)
                table[bytes.count].append(entry)
            }
        }
        return table
    }()

    /// The name for `bytes`, which must already have been checked to be a non-empty token.
    /// - Parameter bytes: The field name as received.
    /// - Returns: The field name.
    /// - Throws: ``ClientError`` when `HTTPTypes` rejects the name (it should not for a token).
    static func name(for bytes: UnsafeRawBufferPointer) throws -> HTTPField.Name {
        if bytes.count < byLength.count {
            for entry in byLength[bytes.count]
            where entry.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                return entry.name
            }
        }
        guard let name = HTTPField.Name(String(decoding: bytes, as: UTF8.self)) else {
            throw HTTP1Syntax.violation("invalid header field name")
        }
        return name
    }
}
