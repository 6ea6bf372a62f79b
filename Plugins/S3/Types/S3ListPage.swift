/// One page of a bucket listing (`ListObjectsV2`): up to `max-keys` objects, the common prefixes of a
/// delimited listing, and the token of the next page.
public struct S3ListPage: Sendable, Hashable {
    /// The objects of the page, in key order.
    public var objects: [S3ObjectSummary]
    /// With a delimiter: the "folders", each a prefix ending at the delimiter.
    public var commonPrefixes: [String]
    /// Whether more pages follow.
    public var isTruncated: Bool
    /// The token to ask for the next page with, when ``isTruncated``.
    public var nextContinuationToken: String?
    /// The number of keys and prefixes on the page, as S3 counted them.
    public var keyCount: Int

    /// Creates a page.
    /// - Parameters:
    ///   - objects: The objects.
    ///   - commonPrefixes: The common prefixes.
    ///   - isTruncated: Whether more pages follow.
    ///   - nextContinuationToken: The next page's token.
    ///   - keyCount: The number of keys and prefixes.
    public init(
        objects: [S3ObjectSummary], commonPrefixes: [String] = [], isTruncated: Bool = false,
        nextContinuationToken: String? = nil, keyCount: Int? = nil
    ) {
        self.objects = objects
        self.commonPrefixes = commonPrefixes
        self.isTruncated = isTruncated
        self.nextContinuationToken = nextContinuationToken
        self.keyCount = keyCount ?? objects.count + commonPrefixes.count
    }
}

/// An object as a listing shows it.
public struct S3ObjectSummary: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The size in bytes.
    public var size: Int64
    /// The ETag, quotes included as S3 sends it.
    public var eTag: String
    /// The last modification time, ISO 8601 as S3 sends it (`2026-01-02T03:04:05.000Z`).
    public var lastModified: String
    /// The storage class, when listed.
    public var storageClass: S3StorageClass?

    /// Creates a summary.
    /// - Parameters:
    ///   - key: The key.
    ///   - size: The size.
    ///   - eTag: The ETag.
    ///   - lastModified: The modification time.
    ///   - storageClass: The storage class.
    public init(
        key: String, size: Int64, eTag: String = "", lastModified: String = "", storageClass: S3StorageClass? = nil
    ) {
        self.key = key
        self.size = size
        self.eTag = eTag
        self.lastModified = lastModified
        self.storageClass = storageClass
    }
}

/// A bucket as `ListBuckets` shows it.
public struct S3Bucket: Sendable, Hashable {
    /// The bucket's name.
    public var name: String
    /// When it was created, ISO 8601 as S3 sends it.
    public var creationDate: String

    /// Creates a bucket entry.
    /// - Parameters:
    ///   - name: The name.
    ///   - creationDate: The creation time.
    public init(name: String, creationDate: String = "") {
        self.name = name
        self.creationDate = creationDate
    }
}

/// A part of a multipart upload, as the complete request names it.
public struct S3CompletedPart: Sendable, Hashable {
    /// The part number, from 1.
    public var partNumber: Int
    /// The ETag S3 answered for the part.
    public var eTag: String

    /// Creates a part entry.
    /// - Parameters:
    ///   - partNumber: The part number.
    ///   - eTag: The part's ETag.
    public init(partNumber: Int, eTag: String) {
        self.partNumber = partNumber
        self.eTag = eTag
    }
}
