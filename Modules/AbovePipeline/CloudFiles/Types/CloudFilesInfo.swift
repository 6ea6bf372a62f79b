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
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            root = try decoder.decode(InfoDocument.self, from: Data(body))
        } catch {
            throw CloudFilesError(code: .invalidResponse, message: "GET /info did not answer the JSON expected")
        }
        let swift = root.swift
        containerListingLimit = swift?.containerListingLimit
        accountListingLimit = swift?.accountListingLimit
        maxFileSize = swift?.maxFileSize
        maxObjectNameLength = swift?.maxObjectNameLength
        maxMetadataNameLength = swift?.maxMetaNameLength
        maxMetadataValueLength = swift?.maxMetaValueLength
        maxMetadataCount = swift?.maxMetaCount
        maxMetadataOverallSize = swift?.maxMetaOverallSize
        supportsStaticLargeObjects = root.slo != nil
        maxManifestSegments = root.slo?.maxManifestSegments
        minSegmentSize = root.slo?.minSegmentSize
        supportsBulkDelete = root.bulkDelete != nil
        maxDeletesPerRequest = root.bulkDelete?.maxDeletesPerRequest
        supportsBulkUpload = root.bulkUpload != nil
        supportsTempURL = root.tempurl != nil
        tempURLDigests = root.tempurl?.allowedDigests ?? []
    }
}

/// The parts of `/info` that are read (Swift writes the names in snake case).
struct InfoDocument: Decodable {
    struct Swift: Decodable {
        var containerListingLimit: Int?
        var accountListingLimit: Int?
        var maxFileSize: Int64?
        var maxObjectNameLength: Int?
        var maxMetaNameLength: Int?
        var maxMetaValueLength: Int?
        var maxMetaCount: Int?
        var maxMetaOverallSize: Int?
    }
    struct SLO: Decodable {
        var maxManifestSegments: Int?
        var minSegmentSize: Int64?
    }
    struct Bulk: Decodable { var maxDeletesPerRequest: Int? }
    struct TempURL: Decodable { var allowedDigests: [String]? }
    struct Present: Decodable {}
    var swift: Swift?
    var slo: SLO?
    var bulkDelete: Bulk?
    var bulkUpload: Present?
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
