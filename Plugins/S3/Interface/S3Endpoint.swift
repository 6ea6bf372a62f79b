public import FoundationEssentials
import HTTPCore

/// Where S3 is: the service URL, the region requests are signed for, and how buckets are addressed.
///
/// AWS: `.aws(region: "eu-west-1")` (virtual-host style, `https://bucket.s3.eu-west-1.amazonaws.com/key`).
/// S3-compatible servers (MinIO, Ceph, moto): `S3Endpoint(url: URL(string: "http://127.0.0.1:9000")!,
/// region: "us-east-1", addressingStyle: .path)` (`http://127.0.0.1:9000/bucket/key`).
public struct S3Endpoint: Sendable {
    /// How the bucket appears in a request's URL.
    public enum AddressingStyle: Sendable, Hashable {
        /// `https://host/bucket/key`: works with any host, IP addresses included.
        case path
        /// `https://bucket.host/key`: AWS's preferred style; the bucket must be a valid host label.
        case virtualHost
    }

    /// The service URL: scheme, host and port (and a path prefix, if the server is mounted below one).
    public var url: URL
    /// The region requests are signed for.
    public var region: String
    /// How buckets are addressed.
    public var addressingStyle: AddressingStyle

    /// Creates an endpoint.
    /// - Parameters:
    ///   - url: The service URL.
    ///   - region: The signing region.
    ///   - addressingStyle: Path or virtual-host style.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` when the URL is not `http` or
    ///   `https` with a host.
    public init(url: URL, region: String, addressingStyle: AddressingStyle = .path) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw ClientError(.invalidConfiguration, message: "An S3 endpoint needs an http or https URL with a host")
        }
        self.url = url
        self.region = region
        self.addressingStyle = addressingStyle
    }

    /// AWS's endpoint for a region: `https://s3.<region>.amazonaws.com`, virtual-host style.
    /// - Parameters:
    ///   - region: The region.
    ///   - addressingStyle: Virtual-host style by default.
    /// - Returns: The endpoint.
    public static func aws(region: String, addressingStyle: AddressingStyle = .virtualHost) -> S3Endpoint {
        // The URL is built from a region name; a region with characters a host cannot hold is a programmer error.
        try! S3Endpoint(
            url: URL(string: "https://s3.\(region).amazonaws.com")!, region: region, addressingStyle: addressingStyle)
    }

    /// The URL of a bucket, an object, or the service, with query parameters.
    ///
    /// The key is percent-encoded as S3 signs it (every byte but `A-Z a-z 0-9 - . _ ~ /`), so the path sent is
    /// the canonical one.
    /// - Parameters:
    ///   - bucket: The bucket, or `nil` for the service (`ListBuckets`).
    ///   - key: The key, or `nil` for the bucket itself.
    ///   - query: Parameters in order; a `nil` value gives a bare name (`?uploads`).
    /// - Returns: The URL.
    public func url(bucket: String?, key: String? = nil, query: [(String, String?)] = []) -> URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        var path = components.percentEncodedPath
        if path.hasSuffix("/") { path.removeLast() }
        if let bucket {
            switch addressingStyle {
            case .path: path += "/" + SigV4Canonical.encode(bucket.utf8, keepsSlash: false)
            case .virtualHost: components.percentEncodedHost = bucket + "." + (components.percentEncodedHost ?? "")
            }
        }
        if let key { path += "/" + SigV4Canonical.encode(key.utf8, keepsSlash: true) }
        components.percentEncodedPath = path.isEmpty ? "/" : path
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { name, value in
                SigV4Canonical.encode(name.utf8, keepsSlash: false)
                    + (value.map { "=" + SigV4Canonical.encode($0.utf8, keepsSlash: false) } ?? "")
            }.joined(separator: "&")
        }
        return components.url!
    }
}
