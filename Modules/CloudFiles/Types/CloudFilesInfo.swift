import FoundationEssentials

/// What `GET /info` advertises: the cluster's limits and which middleware it runs. A `nil` limit was not
/// advertised.
public struct CloudFilesInfo: Sendable, Hashable {
    /// Names a listing `GET` returns at most (`swift.container_listing_limit`); a larger `limit=` gets 412.
    public var containerListingLimit: Int?
    /// Containers an account listing returns at most (`swift.account_listing_limit`).
    public var accountListingLimit: Int?
    /// The largest object one `PUT` may send (`swift.max_file_size`).
    public var maxFileSize: Int64?
    /// The longest object name, in bytes (`swift.max_object_name_length`).
    public var maxObjectNameLength: Int?
    /// The longest metadata key (`swift.max_meta_name_length`).
    public var maxMetadataNameLength: Int?
    /// The longest metadata value (`swift.max_meta_value_length`).
    public var maxMetadataValueLength: Int?
    /// Metadata items at most (`swift.max_meta_count`).
    public var maxMetadataCount: Int?
    /// Bytes of all keys and values together at most (`swift.max_meta_overall_size`).
    public var maxMetadataOverallSize: Int?
    /// Whether static large objects are supported (`slo` present).
    public var supportsStaticLargeObjects: Bool
    /// Segments an SLO manifest may list (`slo.max_manifest_segments`).
    public var maxManifestSegments: Int?
    /// The smallest SLO segment but the last (`slo.min_segment_size`), if the cluster has one.
    public var minSegmentSize: Int64?
    /// Whether bulk delete is supported (`bulk_delete` present).
    public var supportsBulkDelete: Bool
    /// Paths one bulk delete may carry (`bulk_delete.max_deletes_per_request`).
    public var maxDeletesPerRequest: Int?
    /// Whether archive extraction is supported (`bulk_upload` present).
    public var supportsBulkUpload: Bool
    /// Whether temp URLs are supported (`tempurl` present).
    public var supportsTempURL: Bool
    /// The digests temp URLs accept (`tempurl.allowed_digests`), for example `["sha1", "sha256", "sha512"]`.
    public var tempURLDigests: [String]

    /// Reads the `/info` JSON document.
    /// - Parameter body: The document.
    /// - Throws: ``CloudFilesError`` `.invalidResponse` when it is not a JSON object.
    public init(json body: [UInt8]) throws {
        let root: InfoDocument
        do {
            root = try JSONDecoder().decode(InfoDocument.self, from: Data(body))
        } catch {
            throw CloudFilesError(code: .invalidResponse, message: "GET /info did not answer the JSON expected")
        }
        let swift = root.swift
        containerListingLimit = swift?.container_listing_limit
        accountListingLimit = swift?.account_listing_limit
        maxFileSize = swift?.max_file_size
        maxObjectNameLength = swift?.max_object_name_length
        maxMetadataNameLength = swift?.max_meta_name_length
        maxMetadataValueLength = swift?.max_meta_value_length
        maxMetadataCount = swift?.max_meta_count
        maxMetadataOverallSize = swift?.max_meta_overall_size
        supportsStaticLargeObjects = root.slo != nil
        maxManifestSegments = root.slo?.max_manifest_segments
        minSegmentSize = root.slo?.min_segment_size
        supportsBulkDelete = root.bulk_delete != nil
        maxDeletesPerRequest = root.bulk_delete?.max_deletes_per_request
        supportsBulkUpload = root.bulk_upload != nil
        supportsTempURL = root.tempurl != nil
        tempURLDigests = root.tempurl?.allowed_digests ?? []
    }
}

/// The parts of `/info` that are read, named as Swift writes them.
struct InfoDocument: Decodable {
    struct Swift: Decodable {
        var container_listing_limit: Int?
        var account_listing_limit: Int?
        var max_file_size: Int64?
        var max_object_name_length: Int?
        var max_meta_name_length: Int?
        var max_meta_value_length: Int?
        var max_meta_count: Int?
        var max_meta_overall_size: Int?
    }
    struct SLO: Decodable {
        var max_manifest_segments: Int?
        var min_segment_size: Int64?
    }
    struct Bulk: Decodable { var max_deletes_per_request: Int? }
    struct TempURL: Decodable { var allowed_digests: [String]? }
    struct Present: Decodable {}
    var swift: Swift?
    var slo: SLO?
    var bulk_delete: Bulk?
    var bulk_upload: Present?
    var tempurl: TempURL?
}

/// `/info`, fetched once per client.
actor LimitsCache {
    private var info: CloudFilesInfo?

    func get(_ fetch: @Sendable () async throws -> CloudFilesInfo) async throws -> CloudFilesInfo {
        if let info { return info }
        let fresh = try await fetch()
        info = fresh
        return fresh
    }
}
