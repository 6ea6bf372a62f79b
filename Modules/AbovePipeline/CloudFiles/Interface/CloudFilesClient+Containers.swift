public import HTTPCore
import HTTPPipeline

extension CloudFilesClient {
    /// Creates a container (or updates its metadata when it exists; Swift answers 201 or 202).
    /// - Parameters:
    ///   - name: The container.
    ///   - metadata: `X-Container-Meta-*` metadata.
    ///   - headerFields: Other fields (`X-Container-Read`, `X-Storage-Policy`, `X-Versions-Location`, …).
    /// - Throws: ``CloudFilesError`` or `ClientError`.
    public func createContainer(
        _ name: String, metadata: [String: String] = [:], headerFields: HTTPFields = [:]
    ) async throws {
        var fields = headerFields
        try CloudFilesMetadata.write(metadata, into: &fields, level: .container, limits: await knownLimits())
        try await perform(try await request(.put, container: name, headers: fields))
    }

    /// Deletes an empty container.
    /// - Parameter name: The container.
    /// - Throws: ``CloudFilesError`` (`.conflict` when it holds objects, `.notFound`) or `ClientError`.
    public func deleteContainer(_ name: String) async throws {
        try await perform(try await request(.delete, container: name))
    }

    /// A container's counts and metadata (`HEAD`).
    /// - Parameter name: The container.
    /// - Returns: The head.
    /// - Throws: ``CloudFilesError`` (`.notFound`) or `ClientError`.
    public func containerInfo(_ name: String) async throws -> CloudFilesContainerInfo {
        CloudFilesContainerInfo(fields: try await perform(try await request(.head, container: name)).headerFields)
    }

    /// Sets (or, with an empty value, removes) container metadata (`POST`), for example `Temp-URL-Key`.
    /// - Parameters:
    ///   - name: The container.
    ///   - metadata: Keys and values.
    ///   - headerFields: Other fields (`X-Container-Read`, …).
    /// - Throws: ``CloudFilesError`` or `ClientError`.
    public func updateContainerMetadata(
        _ name: String, metadata: [String: String], headerFields: HTTPFields = [:]
    ) async throws {
        var fields = headerFields
        try CloudFilesMetadata.write(metadata, into: &fields, level: .container, limits: await knownLimits())
        try await perform(try await request(.post, container: name, headers: fields))
    }

    /// A container's objects as pages (JSON listings), paged by marker until an empty page.
    /// - Parameters:
    ///   - container: The container.
    ///   - prefix: Only names starting with it.
    ///   - delimiter: Rolls names up to pseudo-directories at it (usually `/`).
    ///   - limit: Names a page; never more than `/info`'s `container_listing_limit` (the server's default when `nil`).
    ///   - marker: Only names after it.
    ///   - endMarker: Only names before it.
    /// - Returns: The pages.
    public func listObjects(
        container: String, prefix: String? = nil, delimiter: String? = nil, limit: Int? = nil, marker: String? = nil,
        endMarker: String? = nil
    ) -> CloudFilesPages<CloudFilesObject> {
        CloudFilesPages(marker: marker, name: \.name) { marker in
            let pageLimit = await clampedLimit(limit, \.containerListingLimit)
            let query = Self.listingQuery(
                prefix: prefix, delimiter: delimiter, limit: pageLimit, marker: marker, endMarker: endMarker)
            let body = try await perform(try await request(.get, container: container, query: query)).body
            return try Self.decodeListing([CloudFilesObject].self, body)
        }
    }
}
