public import HTTPCore

/// What a `HEAD` or `GET` of an object says about it: size, ETag, content type, metadata, storage class.
public struct S3ObjectHead: Sendable, Hashable {
    /// `Content-Length` (of the whole object for `HEAD`, of the range for a ranged `GET`).
    public var contentLength: Int64?
    /// `ETag`, quotes included.
    public var eTag: String?
    /// `Content-Type`.
    public var contentType: String?
    /// `Last-Modified`, as sent.
    public var lastModified: String?
    /// User metadata from the `x-amz-meta-*` fields, names without the prefix and lowercased.
    public var metadata: [String: String]
    /// `x-amz-storage-class` (S3 omits it for `STANDARD`).
    public var storageClass: S3StorageClass?

    /// Reads the fields of a response.
    /// - Parameter fields: The response's header fields.
    public init(fields: HTTPFields) {
        contentLength = fields[.contentLength].flatMap { Int64($0) }
        eTag = fields[HTTPField.Name("ETag")!]
        contentType = fields[.contentType]
        lastModified = fields[.lastModified]
        storageClass = fields[HTTPField.Name("x-amz-storage-class")!].map { S3StorageClass(rawValue: $0) }
        var metadata = [String: String]()
        for field in fields {
            let name = field.name.canonicalName
            if name.hasPrefix("x-amz-meta-") { metadata[String(name.dropFirst(11))] = field.value }
        }
        self.metadata = metadata
    }
}
