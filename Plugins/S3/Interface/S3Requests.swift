import FoundationEssentials
public import HTTPCore

/// Builds the requests of S3's operations for a `Client` to send (ASIS3Request and its subclasses as values).
///
/// The requests are not signed: a client with ``S3SigningMiddleware`` signs every attempt, so retries, redirects
/// and the pipeline's own changes are signed as sent. Read the answers with ``S3ResponseParser``.
///
/// ```swift
/// let requests = S3Requests(endpoint: endpoint)
/// let put = requests.putObject(bucket: "photos", key: "a.jpg", body: try .file(atPath: path))
/// let response = try await client.send(put)
/// ```
public struct S3Requests: Sendable {
    /// Where S3 is.
    public var endpoint: S3Endpoint
    /// The options every request is built with (timeouts, retries on timeout, progress); the defaults by default.
    public var options: RequestOptions

    /// Creates a builder.
    /// - Parameters:
    ///   - endpoint: Where S3 is.
    ///   - options: The options of every request.
    public init(endpoint: S3Endpoint, options: RequestOptions = RequestOptions()) {
        self.endpoint = endpoint
        self.options = options
    }

    /// A request with the builder's options.
    func make(url: URL, method: HTTPRequest.Method = .get, body: RequestBody? = nil) -> Request {
        Request(url: url, method: method, body: body, options: options)
    }

    /// `GET` an object (optionally a byte range). To save it to a file with resume, set the request's
    /// `options.download` (the pipeline sends `Range` to resume).
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    ///   - range: The bytes to get, or `nil` for all.
    /// - Returns: The request.
    public func getObject(bucket: String, key: String, range: ClosedRange<Int64>? = nil) -> Request {
        var request = make(url: endpoint.url(bucket: bucket, key: key))
        if let range { request.headerFields[.range] = "bytes=\(range.lowerBound)-\(range.upperBound)" }
        return request
    }

    /// `HEAD` an object: its size, ETag, type and metadata without the body (read them with ``S3ObjectHead``).
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    /// - Returns: The request.
    public func headObject(bucket: String, key: String) -> Request {
        make(url: endpoint.url(bucket: bucket, key: key), method: .head)
    }

    /// `PUT` an object from memory, a file streamed from disk, or a stream.
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    ///   - body: The content.
    ///   - options: Content type, metadata, ACL, storage class.
    /// - Returns: The request.
    public func putObject(bucket: String, key: String, body: RequestBody, options: S3ObjectOptions = .init()) -> Request
    {
        var request = make(url: endpoint.url(bucket: bucket, key: key), method: .put, body: body)
        apply(options, to: &request.headerFields)
        return request
    }

    /// `DELETE` an object.
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    /// - Returns: The request.
    public func deleteObject(bucket: String, key: String) -> Request {
        make(url: endpoint.url(bucket: bucket, key: key), method: .delete)
    }

    /// Copy an object on the server (`PUT` with `x-amz-copy-source`). With `options`, the copy's metadata is
    /// replaced by them (`x-amz-metadata-directive: REPLACE`); without, it is copied.
    /// - Parameters:
    ///   - sourceBucket: The source bucket.
    ///   - sourceKey: The source key.
    ///   - bucket: The destination bucket.
    ///   - key: The destination key.
    ///   - options: New metadata, ACL and storage class, or `nil` to copy them.
    /// - Returns: The request; its answer is a `CopyObjectResult` (``S3ResponseParser/eTag(_:root:)``).
    public func copyObject(
        from sourceBucket: String, key sourceKey: String, to bucket: String, key: String,
        options: S3ObjectOptions? = nil
    ) -> Request {
        var request = make(url: endpoint.url(bucket: bucket, key: key), method: .put)
        request.headerFields[HTTPField.Name("x-amz-copy-source")!] =
            "/" + SigV4Canonical.encode(sourceBucket.utf8, keepsSlash: false) + "/"
            + SigV4Canonical.encode(sourceKey.utf8, keepsSlash: true)
        if let options {
            request.headerFields[HTTPField.Name("x-amz-metadata-directive")!] = "REPLACE"
            apply(options, to: &request.headerFields)
        }
        return request
    }

    /// Create a bucket (`PUT /bucket`); outside `us-east-1` with the region's `LocationConstraint`.
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - acl: A canned ACL for the bucket.
    /// - Returns: The request.
    public func createBucket(_ bucket: String, acl: S3CannedACL? = nil) -> Request {
        var request = make(url: endpoint.url(bucket: bucket), method: .put)
        if endpoint.region != "us-east-1" {
            request.body = .string(
                "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>"
                    + XMLText.escape(endpoint.region) + "</LocationConstraint></CreateBucketConfiguration>")
            request.headerFields[.contentType] = "application/xml"
        }
        if let acl { request.headerFields[HTTPField.Name("x-amz-acl")!] = acl.rawValue }
        return request
    }

    /// Delete an empty bucket.
    /// - Parameter bucket: The bucket.
    /// - Returns: The request.
    public func deleteBucket(_ bucket: String) -> Request {
        make(url: endpoint.url(bucket: bucket), method: .delete)
    }

    /// List the buckets of the account (`GET /`); read with ``S3ResponseParser/buckets(_:)``.
    /// - Returns: The request.
    public func listBuckets() -> Request {
        make(url: endpoint.url(bucket: nil))
    }

    /// One page of `ListObjectsV2`; read with ``S3ResponseParser/listPage(_:)``.
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - prefix: Only keys starting with it.
    ///   - delimiter: Groups keys up to it into ``S3ListPage/commonPrefixes`` (usually `/`).
    ///   - continuationToken: The previous page's ``S3ListPage/nextContinuationToken``.
    ///   - maxKeys: At most this many keys a page (S3's limit and default is 1,000).
    ///   - startAfter: Only keys after it (ASIS3BucketRequest's `marker`).
    /// - Returns: The request.
    public func listObjects(
        bucket: String, prefix: String? = nil, delimiter: String? = nil, continuationToken: String? = nil,
        maxKeys: Int? = nil, startAfter: String? = nil
    ) -> Request {
        var query: [(String, String?)] = [("list-type", "2")]
        if let continuationToken { query.append(("continuation-token", continuationToken)) }
        if let delimiter { query.append(("delimiter", delimiter)) }
        if let maxKeys { query.append(("max-keys", String(maxKeys))) }
        if let prefix { query.append(("prefix", prefix)) }
        if let startAfter { query.append(("start-after", startAfter)) }
        return make(url: endpoint.url(bucket: bucket, query: query))
    }

    func apply(_ options: S3ObjectOptions, to fields: inout HTTPFields) {
        if let type = options.contentType { fields[.contentType] = type }
        if let acl = options.acl { fields[HTTPField.Name("x-amz-acl")!] = acl.rawValue }
        if let storageClass = options.storageClass {
            fields[HTTPField.Name("x-amz-storage-class")!] = storageClass.rawValue
        }
        if let cacheControl = options.cacheControl { fields[.cacheControl] = cacheControl }
        if let disposition = options.contentDisposition { fields[HTTPField.Name("Content-Disposition")!] = disposition }
        for (name, value) in options.metadata.sorted(by: { $0.key < $1.key }) {
            if let fieldName = HTTPField.Name("x-amz-meta-" + name.lowercased()) { fields[fieldName] = value }
        }
    }
}
