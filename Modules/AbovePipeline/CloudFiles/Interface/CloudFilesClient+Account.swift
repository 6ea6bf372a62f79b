import FoundationEssentials
public import HTTPCore
import HTTPPipeline

extension CloudFilesClient {
    /// The cluster's limits and capabilities (`GET /info`, beside `/v1`), fetched once per client and cached.
    /// - Returns: The info.
    /// - Throws: ``CloudFilesError`` or `ClientError`.
    public func info() async throws -> CloudFilesInfo {
        try await limits.get {
            let storage = try await session().storageURL
            var components = URLComponents(url: storage, resolvingAgainstBaseURL: false)
            // /info sits at the root of the API, where /v1 is: drop /v1/AUTH_… from the storage path.
            let path = components?.path ?? ""
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            let root = parts.firstIndex(of: "v1").map { parts[..<$0].joined(separator: "/") } ?? ""
            components?.path = root + "/info"
            components?.query = nil
            guard let url = components?.url else {
                throw CloudFilesError(code: .invalidInput, message: "no /info URL beside the storage URL")
            }
            return try CloudFilesInfo(json: try await perform(Request(url: url, options: options)).body)
        }
    }

    /// The limits when `/info` answers; `nil` (no local checks) when the cluster does not publish them.
    func knownLimits() async -> CloudFilesInfo? { try? await info() }

    /// The account's counts and metadata (`HEAD` on the storage URL).
    /// - Returns: The account's head.
    /// - Throws: ``CloudFilesError`` or `ClientError`.
    public func accountInfo() async throws -> CloudFilesAccountInfo {
        CloudFilesAccountInfo(fields: try await perform(try await request(.head)).headerFields)
    }

    /// Sets (or, with an empty value, removes) account metadata (`POST`), for example `Temp-URL-Key`.
    /// - Parameters:
    ///   - metadata: Keys and values.
    ///   - headerFields: Other fields.
    /// - Throws: ``CloudFilesError`` (`.invalidInput` over the limits) or `ClientError`.
    public func updateAccountMetadata(_ metadata: [String: String], headerFields: HTTPFields = [:]) async throws {
        var fields = headerFields
        try CloudFilesMetadata.write(metadata, into: &fields, level: .account, limits: await knownLimits())
        try await perform(try await request(.post, headers: fields))
    }

    /// The account's containers as pages (JSON listings).
    /// - Parameters:
    ///   - prefix: Only names starting with it.
    ///   - limit: Names a page; never more than `/info`'s `account_listing_limit` (the server's default when `nil`).
    ///   - marker: Only names after it.
    ///   - endMarker: Only names before it.
    /// - Returns: The pages.
    public func listContainers(
        prefix: String? = nil, limit: Int? = nil, marker: String? = nil, endMarker: String? = nil
    ) -> CloudFilesPages<CloudFilesContainer> {
        CloudFilesPages(marker: marker, name: \.name) { marker in
            let pageLimit = await clampedLimit(limit, \.accountListingLimit)
            let query = Self.listingQuery(
                prefix: prefix, delimiter: nil, limit: pageLimit, marker: marker, endMarker: endMarker)
            let body = try await perform(try await request(.get, query: query)).body
            return try Self.decodeListing([CloudFilesContainer].self, body)
        }
    }

    func clampedLimit(_ limit: Int?, _ serverLimit: KeyPath<CloudFilesInfo, Int?>) async -> Int? {
        guard let limit else { return nil }
        guard let max = await knownLimits()?[keyPath: serverLimit] else { return limit }
        return min(limit, max)
    }

    static func listingQuery(
        prefix: String?, delimiter: String?, limit: Int?, marker: String?, endMarker: String?
    ) -> [(String, String?)] {
        var query: [(String, String?)] = [("format", "json")]
        if let limit { query.append(("limit", String(limit))) }
        if let marker { query.append(("marker", marker)) }
        if let endMarker { query.append(("end_marker", endMarker)) }
        if let prefix { query.append(("prefix", prefix)) }
        if let delimiter { query.append(("delimiter", delimiter)) }
        return query
    }

    static func decodeListing<T: Decodable>(_ type: T.Type, _ body: [UInt8]) throws -> T {
        if body.isEmpty,
            let empty = [CloudFilesObject]() as? T ?? [CloudFilesContainer]() as? T
                ?? [CloudFilesCDNContainer]() as? T
        {
            return empty
        }
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            throw CloudFilesError(code: .invalidResponse, message: "the listing is not the JSON expected")
        }
    }
}
