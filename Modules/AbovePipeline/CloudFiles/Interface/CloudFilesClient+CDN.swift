import FoundationEssentials
public import HTTPCore
import HTTPPipeline

/// A container's CDN settings (Rackspace only).
public struct CloudFilesCDNInfo: Sendable {
    /// `X-Cdn-Enabled`.
    public var isEnabled: Bool
    /// `X-Cdn-Uri`: the container's public HTTP address.
    public var uri: String?
    /// `X-Cdn-Ssl-Uri`: its HTTPS address.
    public var sslURI: String?
    /// `X-Cdn-Streaming-Uri`.
    public var streamingURI: String?
    /// `X-Ttl`: seconds edge caches keep an object.
    public var ttl: Int?
    /// `X-Log-Retention`.
    public var logRetention: Bool
    /// Every field of the answer.
    public var headerFields: HTTPFields

    /// Reads a CDN `HEAD`.
    /// - Parameter fields: The answer's fields.
    public init(fields: HTTPFields) {
        func field(_ name: String) -> String? { fields[HTTPField.Name(name)!] }
        isEnabled = field("X-Cdn-Enabled")?.lowercased() == "true"
        uri = field("X-Cdn-Uri")
        sslURI = field("X-Cdn-Ssl-Uri")
        streamingURI = field("X-Cdn-Streaming-Uri")
        ttl = field("X-Ttl").flatMap { Int($0) }
        logRetention = field("X-Log-Retention")?.lowercased() == "true"
        headerFields = fields
    }
}

extension CloudFilesClient {
    /// **Rackspace only.** CDN-enables a container (`PUT` on the CDN management URL with `X-CDN-Enabled: True`),
    /// ASICloudFilesCDNRequest's `putRequestWithContainer:ttl:`. OpenStack Swift has no CDN API; its session has no
    /// CDN management URL.
    /// - Parameters:
    ///   - container: The container.
    ///   - ttl: Seconds edge caches keep an object; Rackspace's default (259200) when `nil`.
    /// - Throws: ``CloudFilesError`` (`.invalidInput` without a CDN management URL) or `ClientError`.
    public func enableCDN(container: String, ttl: Int? = nil) async throws {
        var fields = HTTPFields()
        fields[HTTPField.Name("X-CDN-Enabled")!] = "True"
        if let ttl { fields[HTTPField.Name("X-TTL")!] = String(ttl) }
        try await perform(try await cdnRequest(.put, container: container, headers: fields))
    }

    /// **Rackspace only.** Changes a CDN-enabled container's settings (`POST`): enabled, TTL, log retention.
    /// - Parameters:
    ///   - container: The container.
    ///   - enabled: `X-CDN-Enabled`.
    ///   - ttl: `X-TTL`.
    ///   - logRetention: `X-Log-Retention`.
    /// - Throws: ``CloudFilesError`` or `ClientError`.
    public func updateCDN(
        container: String, enabled: Bool? = nil, ttl: Int? = nil, logRetention: Bool? = nil
    )
        async throws
    {
        var fields = HTTPFields()
        if let enabled { fields[HTTPField.Name("X-CDN-Enabled")!] = enabled ? "True" : "False" }
        if let ttl { fields[HTTPField.Name("X-TTL")!] = String(ttl) }
        if let logRetention { fields[HTTPField.Name("X-Log-Retention")!] = logRetention ? "True" : "False" }
        try await perform(try await cdnRequest(.post, container: container, headers: fields))
    }

    /// **Rackspace only.** A container's CDN settings (`HEAD` on the CDN management URL).
    /// - Parameter container: The container.
    /// - Returns: The settings.
    /// - Throws: ``CloudFilesError`` (`.notFound` for a container never CDN-enabled) or `ClientError`.
    public func cdnInfo(container: String) async throws -> CloudFilesCDNInfo {
        CloudFilesCDNInfo(fields: try await perform(try await cdnRequest(.head, container: container)).headerFields)
    }

    private func cdnRequest(
        _ method: HTTPRequest.Method, container: String, headers: HTTPFields = [:]
    ) async throws
        -> Request
    {
        guard let base = try await session().cdnManagementURL else {
            throw CloudFilesError(
                code: .invalidInput, message: "no CDN management URL: the CDN API is Rackspace's, not OpenStack Swift's"
            )
        }
        return try Self.request(
            method, base: base, container: container, object: nil, query: [], headers: headers, body: nil,
            options: options)
    }
}

/// A container in the CDN listing (Rackspace only).
public struct CloudFilesCDNContainer: Sendable, Hashable, Decodable {
    /// The container.
    public var name: String
    /// Whether it is published.
    public var cdnEnabled: Bool
    /// Seconds edge caches keep an object.
    public var ttl: Int?
    /// Its public HTTP address.
    public var cdnURI: String?
    /// Its HTTPS address.
    public var cdnSSLURI: String?
    /// Whether access logs are kept.
    public var logRetention: Bool?

    enum CodingKeys: String, CodingKey {
        case name, ttl
        case cdnEnabled = "cdn_enabled"
        case cdnURI = "cdn_uri"
        case cdnSSLURI = "cdn_ssl_uri"
        case logRetention = "log_retention"
    }
}

extension CloudFilesClient {
    /// **Rackspace only.** The CDN-enabled containers as pages (`GET` on the CDN management URL, JSON), with
    /// `enabled_only` sent when asked (ASICloudFilesCDNRequest ignored it).
    /// - Parameters:
    ///   - enabledOnly: Only containers published now.
    ///   - limit: Names a page.
    ///   - marker: Only names after it.
    /// - Returns: The pages.
    public func listCDNContainers(
        enabledOnly: Bool = false, limit: Int? = nil, marker: String? = nil
    )
        -> CloudFilesPages<CloudFilesCDNContainer>
    {
        CloudFilesPages(marker: marker, name: \.name) { marker in
            guard let base = try await session().cdnManagementURL else {
                throw CloudFilesError(code: .invalidInput, message: "no CDN management URL (Rackspace only)")
            }
            var query = Self.listingQuery(prefix: nil, delimiter: nil, limit: limit, marker: marker, endMarker: nil)
            if enabledOnly { query.append(("enabled_only", "true")) }
            let request = try Self.request(
                .get, base: base, container: nil, object: nil, query: query, headers: [:], body: nil, options: options)
            return try Self.decodeListing([CloudFilesCDNContainer].self, try await perform(request).body)
        }
    }
}
