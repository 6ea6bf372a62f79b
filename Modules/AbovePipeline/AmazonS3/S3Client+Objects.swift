public import HTTPCore
import HTTPPipeline
public import S3

extension S3Client {
    /// Gets an object into memory (or a byte range of it).
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    ///   - range: The bytes to get; all by default.
    /// - Returns: The object's head and bytes.
    /// - Throws: ``S3/S3Error`` (`NoSuchKey`, …) or `ClientError`.
    public func getObject(
        bucket: String, key: String, range: ClosedRange<Int64>? = nil
    ) async throws -> (head: S3ObjectHead, body: [UInt8]) {
        let response = try await perform(requests.getObject(bucket: bucket, key: key, range: range))
        return (S3ObjectHead(fields: response.headerFields), response.body)
    }

    /// Downloads an object to a file, streamed to disk; with `resume`, a partial download left in
    /// `path + ".download"` continues with `Range` (ASIHTTPRequest's `allowResumeForFileDownloads`).
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    ///   - path: Where to save the object; written only when complete.
    ///   - resume: Whether to continue a partial download.
    /// - Returns: The object's head.
    /// - Throws: ``S3/S3Error`` or `ClientError`.
    @discardableResult
    public func downloadObject(
        bucket: String, key: String, to path: String, resume: Bool = true
    ) async throws
        -> S3ObjectHead
    {
        var request = requests.getObject(bucket: bucket, key: key)
        request.options.download = DownloadOptions(
            destinationPath: path, temporaryPath: path + ".download", allowsResume: resume)
        return S3ObjectHead(fields: try await perform(request).headerFields)
    }

    /// Puts an object from a body (memory, a file streamed from disk, or a stream).
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    ///   - body: The content.
    ///   - options: Content type, metadata, ACL, storage class.
    /// - Returns: The object's ETag.
    /// - Throws: ``S3/S3Error`` or `ClientError`.
    @discardableResult
    public func putObject(
        bucket: String, key: String, body: RequestBody, options: S3ObjectOptions = .init()
    )
        async throws -> String
    {
        let response = try await perform(requests.putObject(bucket: bucket, key: key, body: body, options: options))
        return response.headerFields[HTTPField.Name("ETag")!] ?? ""
    }

    /// Puts an object streamed from a file in constant memory (one request; see
    /// ``uploadFile(bucket:key:fromFile:options:configuration:progress:)`` for large files).
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    ///   - path: The file.
    ///   - options: Content type, metadata, ACL, storage class.
    /// - Returns: The object's ETag.
    /// - Throws: ``S3/S3Error`` or `ClientError` (``HTTPCore/ClientError/Code/storageFailed`` for an unreadable file).
    @discardableResult
    public func putObject(
        bucket: String, key: String, fileAtPath path: String, options: S3ObjectOptions = .init()
    )
        async throws -> String
    {
        try await putObject(bucket: bucket, key: key, body: try .file(atPath: path), options: options)
    }

    /// Heads an object: size, ETag, type and metadata.
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    /// - Returns: The head.
    /// - Throws: ``S3/S3Error`` (``S3/S3Error/Code/notFound`` for a missing key: a `HEAD` has no error body) or
    ///   `ClientError`.
    public func headObject(bucket: String, key: String) async throws -> S3ObjectHead {
        S3ObjectHead(fields: try await perform(requests.headObject(bucket: bucket, key: key)).headerFields)
    }

    /// Deletes an object (S3 answers success for a missing key too).
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    /// - Throws: ``S3/S3Error`` or `ClientError`.
    public func deleteObject(bucket: String, key: String) async throws {
        try await perform(requests.deleteObject(bucket: bucket, key: key))
    }

    /// Copies an object on the server.
    /// - Parameters:
    ///   - sourceBucket: The source bucket.
    ///   - sourceKey: The source key.
    ///   - bucket: The destination bucket.
    ///   - key: The destination key.
    ///   - options: New metadata and headers, or `nil` to copy the source's.
    /// - Returns: The copy's ETag.
    /// - Throws: ``S3/S3Error`` (also when S3 answers 200 with an error document) or `ClientError`.
    @discardableResult
    public func copyObject(
        from sourceBucket: String, key sourceKey: String, to bucket: String, key: String,
        options: S3ObjectOptions? = nil
    ) async throws -> String {
        let request = requests.copyObject(from: sourceBucket, key: sourceKey, to: bucket, key: key, options: options)
        return try S3ResponseParser.eTag(try await perform(request).body, root: "CopyObjectResult")
    }
}
