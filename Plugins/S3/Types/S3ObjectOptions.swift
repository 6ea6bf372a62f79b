/// What to store with an object: its content type, user metadata (`x-amz-meta-*`), canned ACL and storage
/// class (ASIS3ObjectRequest's `mimeType`, `accessPolicy`, `storageClass` and headers).
public struct S3ObjectOptions: Sendable, Hashable {
    /// `Content-Type`; S3 stores `binary/octet-stream` when `nil`.
    public var contentType: String?
    /// User metadata, sent as `x-amz-meta-<name>` (names are lowercased by S3).
    public var metadata: [String: String]
    /// The canned ACL (`x-amz-acl`).
    public var acl: S3CannedACL?
    /// The storage class (`x-amz-storage-class`).
    public var storageClass: S3StorageClass?
    /// `Cache-Control`, stored and served with the object.
    public var cacheControl: String?
    /// `Content-Disposition`, stored and served with the object.
    public var contentDisposition: String?

    /// Creates options; everything is optional.
    /// - Parameters:
    ///   - contentType: The content type.
    ///   - metadata: User metadata.
    ///   - acl: The canned ACL.
    ///   - storageClass: The storage class.
    ///   - cacheControl: `Cache-Control`.
    ///   - contentDisposition: `Content-Disposition`.
    public init(
        contentType: String? = nil, metadata: [String: String] = [:], acl: S3CannedACL? = nil,
        storageClass: S3StorageClass? = nil, cacheControl: String? = nil, contentDisposition: String? = nil
    ) {
        self.contentType = contentType
        self.metadata = metadata
        self.acl = acl
        self.storageClass = storageClass
        self.cacheControl = cacheControl
        self.contentDisposition = contentDisposition
    }
}

/// A canned ACL (`x-amz-acl`); ASIS3Request's access policies.
public struct S3CannedACL: Sendable, Hashable, RawRepresentable {
    /// The header value, for example `public-read`.
    public var rawValue: String

    /// Wraps a value.
    /// - Parameter rawValue: The header value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Only the owner has access (the default).
    public static let `private` = S3CannedACL(rawValue: "private")
    /// Anyone may read.
    public static let publicRead = S3CannedACL(rawValue: "public-read")
    /// Anyone may read and write.
    public static let publicReadWrite = S3CannedACL(rawValue: "public-read-write")
    /// Any authenticated AWS user may read.
    public static let authenticatedRead = S3CannedACL(rawValue: "authenticated-read")
    /// The bucket owner may read.
    public static let bucketOwnerRead = S3CannedACL(rawValue: "bucket-owner-read")
    /// The bucket owner has full control.
    public static let bucketOwnerFullControl = S3CannedACL(rawValue: "bucket-owner-full-control")
}

/// A storage class (`x-amz-storage-class`).
public struct S3StorageClass: Sendable, Hashable, RawRepresentable {
    /// The header value, for example `STANDARD_IA`.
    public var rawValue: String

    /// Wraps a value.
    /// - Parameter rawValue: The header value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Standard storage.
    public static let standard = S3StorageClass(rawValue: "STANDARD")
    /// Reduced redundancy (ASIS3Request's `ASIS3StorageClassReducedRedundancy`).
    public static let reducedRedundancy = S3StorageClass(rawValue: "REDUCED_REDUNDANCY")
    /// Infrequent access.
    public static let standardIA = S3StorageClass(rawValue: "STANDARD_IA")
    /// Infrequent access in one zone.
    public static let oneZoneIA = S3StorageClass(rawValue: "ONEZONE_IA")
    /// Intelligent tiering.
    public static let intelligentTiering = S3StorageClass(rawValue: "INTELLIGENT_TIERING")
    /// Glacier flexible retrieval.
    public static let glacier = S3StorageClass(rawValue: "GLACIER")
    /// Glacier deep archive.
    public static let deepArchive = S3StorageClass(rawValue: "DEEP_ARCHIVE")
}
