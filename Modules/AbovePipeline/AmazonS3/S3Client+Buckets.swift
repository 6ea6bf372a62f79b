import HTTPPipeline
public import S3

extension S3Client {
    /// Creates a bucket.
    /// - Parameters:
    ///   - bucket: The bucket's name.
    ///   - acl: A canned ACL.
    /// - Throws: ``S3/S3Error`` (`BucketAlreadyExists`, …) or `ClientError`.
    public func createBucket(_ bucket: String, acl: S3CannedACL? = nil) async throws {
        try await perform(requests.createBucket(bucket, acl: acl))
    }

    /// Deletes an empty bucket.
    /// - Parameter bucket: The bucket.
    /// - Throws: ``S3/S3Error`` (`BucketNotEmpty`, `NoSuchBucket`) or `ClientError`.
    public func deleteBucket(_ bucket: String) async throws {
        try await perform(requests.deleteBucket(bucket))
    }

    /// Lists the account's buckets (ASIS3ServiceRequest).
    /// - Returns: The buckets.
    /// - Throws: ``S3/S3Error`` or `ClientError`.
    public func listBuckets() async throws -> [S3Bucket] {
        try S3ResponseParser.buckets(try await perform(requests.listBuckets()).body)
    }

    /// Lists a bucket as an asynchronous sequence of pages (`ListObjectsV2`); each page is fetched when the
    /// loop asks for it, following the continuation token (ASIS3BucketRequest with prefix, marker, delimiter and
    /// `maxResultCount`).
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - prefix: Only keys starting with it.
    ///   - delimiter: Groups keys into common prefixes (usually `/`).
    ///   - maxKeys: Keys a page (S3's default and limit is 1,000).
    ///   - startAfter: Only keys after it.
    /// - Returns: The pages.
    public func listObjects(
        bucket: String, prefix: String? = nil, delimiter: String? = nil, maxKeys: Int? = nil, startAfter: String? = nil
    ) -> S3ListPages {
        S3ListPages { token in
            let request = requests.listObjects(
                bucket: bucket, prefix: prefix, delimiter: delimiter, continuationToken: token, maxKeys: maxKeys,
                startAfter: startAfter)
            return try S3ResponseParser.listPage(try await perform(request).body)
        }
    }
}
