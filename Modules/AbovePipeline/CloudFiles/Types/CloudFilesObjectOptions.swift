public import FoundationEssentials
public import HTTPCore

/// What an object is stored with: content type, metadata, expiry, and any other field.
public struct CloudFilesObjectOptions: Sendable {
    /// `Content-Type`; Swift guesses from the name when `nil`.
    public var contentType: String?
    /// `X-Object-Meta-*` metadata.
    public var metadata: [String: String]
    /// `X-Delete-After`: seconds until Swift deletes the object.
    public var deleteAfter: Int?
    /// `X-Delete-At`: when Swift deletes the object.
    public var deleteAt: Date?
    /// The content's MD5 in hexadecimal, sent as `ETag`: Swift refuses the upload with 422 (``CloudFilesError/Code/badRequest``)
    /// when the bytes it received differ (ASICloudFilesRequest took this argument and ignored it).
    public var eTag: String?
    /// Other fields sent as given (`Content-Disposition`, `X-Object-Manifest`, …).
    public var headerFields: HTTPFields

    /// Creates options.
    /// - Parameters:
    ///   - contentType: The content type.
    ///   - metadata: The metadata.
    ///   - deleteAfter: Seconds until deletion.
    ///   - deleteAt: The deletion time.
    ///   - eTag: The content's MD5, checked by Swift.
    ///   - headerFields: Other fields.
    public init(
        contentType: String? = nil, metadata: [String: String] = [:], deleteAfter: Int? = nil, deleteAt: Date? = nil,
        eTag: String? = nil, headerFields: HTTPFields = [:]
    ) {
        self.eTag = eTag
        self.contentType = contentType
        self.metadata = metadata
        self.deleteAfter = deleteAfter
        self.deleteAt = deleteAt
        self.headerFields = headerFields
    }

    func fields(limits: CloudFilesInfo?) throws -> HTTPFields {
        var fields = headerFields
        if let contentType { fields[.contentType] = contentType }
        if let eTag { fields[HTTPField.Name("ETag")!] = eTag }
        if let deleteAfter { fields[HTTPField.Name("X-Delete-After")!] = String(deleteAfter) }
        if let deleteAt {
            fields[HTTPField.Name("X-Delete-At")!] = String(Int64(deleteAt.timeIntervalSince1970.rounded(.down)))
        }
        try CloudFilesMetadata.write(metadata, into: &fields, level: .object, limits: limits)
        return fields
    }
}
