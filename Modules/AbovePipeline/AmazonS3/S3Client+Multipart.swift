import FoundationEssentials
public import HTTPCore
import HTTPPipeline
public import S3

extension S3Client {
    /// How ``S3Client/uploadFile(bucket:key:fromFile:options:configuration:progress:)`` cuts and sends a file.
    public struct MultipartConfiguration: Sendable {
        /// The size of each part but the last (S3: at least 5 MiB, at most 10,000 parts). 8 MiB by default.
        public var partSize: Int64
        /// Parts sent at once through the `RequestQueue`. 4 by default.
        public var maxConcurrentParts: Int
        /// Attempts a part gets before the upload is aborted (a failed part is sent again from disk). 3 by default.
        public var attemptsPerPart: Int
        /// Files up to this size go in one `PUT`; 8 MiB by default.
        public var threshold: Int64

        /// Creates a configuration.
        /// - Parameters:
        ///   - partSize: The part size (at least 5 MiB).
        ///   - maxConcurrentParts: Parts at once.
        ///   - attemptsPerPart: Attempts a part.
        ///   - threshold: The largest file sent in one `PUT`.
        public init(
            partSize: Int64 = 8 << 20, maxConcurrentParts: Int = 4, attemptsPerPart: Int = 3, threshold: Int64 = 8 << 20
        ) {
            precondition(partSize >= 5 << 20, "S3 parts other than the last are at least 5 MiB")
            precondition(maxConcurrentParts >= 1 && attemptsPerPart >= 1, "At least one part and one attempt")
            self.partSize = partSize
            self.maxConcurrentParts = maxConcurrentParts
            self.attemptsPerPart = attemptsPerPart
            self.threshold = threshold
        }
    }

    /// Uploads a file, as a multipart upload when it is larger than the threshold: parts streamed from disk through
    /// a `RequestQueue` (so memory stays flat), progress to `progress`, each failed part sent again up to
    /// ``MultipartConfiguration/attemptsPerPart`` times, and the upload aborted (S3 drops its parts) when a part
    /// fails for good or the task is cancelled.
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    ///   - path: The file; it must not change while uploading.
    ///   - options: Content type, metadata, ACL, storage class.
    ///   - configuration: Part size, width, attempts.
    ///   - progress: Receives the queue's progress events (upload bytes of every part).
    /// - Returns: The object's ETag.
    /// - Throws: ``S3/S3Error`` or `ClientError` (the last failure of the part that failed), or `CancellationError`.
    @discardableResult
    public func uploadFile(
        bucket: String, key: String, fromFile path: String, options: S3ObjectOptions = .init(),
        configuration: MultipartConfiguration = .init(), progress: (any ProgressSink)? = nil
    ) async throws -> String {
        let size = try RequestBody.file(atPath: path).length ?? 0
        guard size > configuration.threshold else {
            var request = requests.putObject(bucket: bucket, key: key, body: try .file(atPath: path), options: options)
            request.options.progress = progress
            return try await perform(request).headerFields[HTTPField.Name("ETag")!] ?? ""
        }
        let created = try await perform(requests.createMultipartUpload(bucket: bucket, key: key, options: options))
        let uploadID = try S3ResponseParser.uploadID(created.body)
        do {
            let parts = try await uploadParts(
                MultipartPlan(bucket: bucket, key: key, uploadID: uploadID, path: path, size: size),
                configuration: configuration, progress: progress)
            let complete = requests.completeMultipartUpload(bucket: bucket, key: key, uploadID: uploadID, parts: parts)
            return try S3ResponseParser.eTag(try await perform(complete).body, root: "CompleteMultipartUploadResult")
        } catch {
            // Cancelled or failed: tell S3 to drop the parts. The abort goes through a queue of its own, whose task
            // sends it even when this task is cancelled (then this task does not wait for it).
            let abortQueue = RequestQueue(client: client)
            let handle = abortQueue.add(requests.abortMultipartUpload(bucket: bucket, key: key, uploadID: uploadID))
            abortQueue.go()
            await handle.wait()
            throw error
        }
    }

    private func uploadParts(
        _ plan: MultipartPlan, configuration: MultipartConfiguration, progress: (any ProgressSink)?
    ) async throws -> [S3CompletedPart] {
        let count = Int((plan.size + configuration.partSize - 1) / configuration.partSize)
        var eTags = [Int: String]()
        try await RequestQueue.sendParts(
            Array(1...count), client: client, width: configuration.maxConcurrentParts, progress: progress,
            attempts: configuration.attemptsPerPart,
            makeRequest: { number in
                let offset = Int64(number - 1) * configuration.partSize
                return requests.uploadPart(
                    bucket: plan.bucket, key: plan.key, uploadID: plan.uploadID, partNumber: number,
                    fileAtPath: plan.path, offset: offset, length: min(configuration.partSize, plan.size - offset))
            },
            accept: { number, result in
                let response = try result.get()
                try S3Client.check(response)
                eTags[number] = response.headerFields[HTTPField.Name("ETag")!] ?? ""
            },
            isRetryable: Self.isRetryable)
        return (1...count).map { S3CompletedPart(partNumber: $0, eTag: eTags[$0] ?? "") }
    }

    /// A part is sent again after a transport failure, a timeout, or a server error (5xx); not after S3 refused it.
    static func isRetryable(_ error: any Error) -> Bool {
        if let error = error as? S3Error { return error.status >= 500 }
        if let error = error as? ClientError { return error.code != .cancelled }
        return false
    }
}

/// What one multipart upload sends.
struct MultipartPlan {
    var bucket: String
    var key: String
    var uploadID: String
    var path: String
    var size: Int64
}
